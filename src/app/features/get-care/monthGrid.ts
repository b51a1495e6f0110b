// The days of one month laid out in weeks from Sunday (SPEC §2 "Appointment request screen": weekday
// headers SUN to SAT), and where the keyboard moves among the days that can be chosen. Dates are the
// viewer's local midnights, as ./slotWindow groups free times.

export interface Weekday {
  readonly short: string;
  readonly long: string;
}

/**
 * SPEC §2: the weekday headers, Sunday first, as shown (upper case: SUN, or DOM in Spanish) and as
 * read out, in `locale`.
 */
export function weekdays(locale: string): readonly Weekday[] {
  const short = new Intl.DateTimeFormat(locale, { weekday: 'short' });
  const long = new Intl.DateTimeFormat(locale, { weekday: 'long' });
  // 2026-11-01 is a Sunday.
  return Array.from({ length: 7 }, (_, index) => {
    const day = new Date(2026, 10, 1 + index);
    return { short: short.format(day).replace('.', '').toLocaleUpperCase(locale), long: long.format(day) };
  });
}

/** The weeks of `month`'s month: seven cells each, null before the 1st and after the last day. */
export function monthWeeks(month: Date): (Date | null)[][] {
  const year = month.getFullYear();
  const index = month.getMonth();
  const days = new Date(year, index + 1, 0).getDate();
  const cells: (Date | null)[] = Array.from({ length: new Date(year, index, 1).getDay() }, () => null);
  for (let day = 1; day <= days; day++) cells.push(new Date(year, index, day));
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (Date | null)[][] = [];
  for (let start = 0; start < cells.length; start += 7) weeks.push(cells.slice(start, start + 7));
  return weeks;
}

/** Keys that move among the days, and how many days one step is. */
const STEPS: Readonly<Record<string, number>> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };

/**
 * The day focus moves to from `from` on `key`, among the month's `enabled` days (ascending): the arrows
 * step a day or a week and go on to the next enabled day that way (a whole week for Up and Down, so a
 * column keeps its weekday when it can); Home and End go to the first and last enabled day of the
 * week. Null when the key is not one of these or no enabled day lies that way.
 */
export function moveFocus(from: Date, key: string, enabled: readonly Date[]): Date | null {
  const day = from.getDate();
  const days = enabled.map((date) => date.getDate());
  if (key === 'Home' || key === 'End') {
    const weekStart = day - from.getDay();
    const week = days.filter((d) => d >= weekStart && d < weekStart + 7);
    const target = key === 'Home' ? week[0] : week[week.length - 1];
    return target === undefined ? null : enabled[days.indexOf(target)];
  }
  const step = STEPS[key];
  if (step === undefined) return null;
  const lastDay = new Date(from.getFullYear(), from.getMonth() + 1, 0).getDate();
  for (let next = day + step; next >= 1 && next <= lastDay; next += step) {
    const found = days.indexOf(next);
    if (found >= 0) return enabled[found];
  }
  // Nothing exactly a week away: the nearest enabled day in that direction.
  const ahead = step > 0 ? days.filter((d) => d > day) : days.filter((d) => d < day).reverse();
  return ahead.length > 0 ? enabled[days.indexOf(ahead[0])] : null;
}
