// Relative dates for the demo clinic. Every date in this folder is written as "N days from the day
// of seeding at hh:mm", so a clinic seeded today has last week's vitals and next week's
// appointments, whenever today is. Clinic times are UTC ('Z'): the data is identical on every
// machine and the app shows times in the viewer's own zone.

const DAY_MS = 24 * 60 * 60 * 1000;

export class DemoCalendar {
  /** Midnight UTC at the start of the seeding day: day 0 of every offset below. */
  readonly dayZero: Date;

  constructor(today: Date) {
    if (Number.isNaN(today.getTime())) {
      throw new Error('DemoCalendar needs a valid date');
    }
    this.dayZero = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
  }

  /** FHIR dateTime/instant `days` from day zero at hour:minute UTC, e.g. '2026-11-22T09:30:00Z'. */
  at(days: number, hour = 0, minute = 0): string {
    return this.instant(days, hour, minute).toISOString().replace('.000Z', 'Z');
  }

  /** FHIR date (YYYY-MM-DD) `days` from day zero. */
  date(days: number): string {
    return this.at(days).slice(0, 10);
  }

  /** The Date `days` from day zero at hour:minute UTC. */
  instant(days: number, hour = 0, minute = 0): Date {
    return new Date(this.dayZero.getTime() + days * DAY_MS + (hour * 60 + minute) * 60 * 1000);
  }

  /** A birth date that makes the person `years` old on day zero, born on the given month/day. */
  birthDate(years: number, month: number, day: number): string {
    const year = this.dayZero.getUTCFullYear() - years;
    const birthdayThisYear = Date.UTC(this.dayZero.getUTCFullYear(), month - 1, day);
    // Not yet had this year's birthday: born one year earlier to be `years` old today.
    const bornYear = birthdayThisYear > this.dayZero.getTime() ? year - 1 : year;
    return `${String(bornYear).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
  }

  /** The day offset (from day zero, UTC days) of the day that `instant` falls on. */
  dayOf(instant: string): number {
    const time = Date.parse(instant);
    if (Number.isNaN(time)) {
      throw new Error(`Not a date: ${instant}`);
    }
    return Math.floor((time - this.dayZero.getTime()) / DAY_MS);
  }

  isWeekday(days: number): boolean {
    const weekday = this.instant(days).getUTCDay();
    return weekday !== 0 && weekday !== 6;
  }

  /** The offset of the first Monday–Friday on or after `days` (clinic visits fall on weekdays). */
  weekdayOnOrAfter(days: number): number {
    let offset = days;
    while (!this.isWeekday(offset)) {
      offset += 1;
    }
    return offset;
  }

  /** The offset of the last Monday–Friday on or before `days`. */
  weekdayOnOrBefore(days: number): number {
    let offset = days;
    while (!this.isWeekday(offset)) {
      offset -= 1;
    }
    return offset;
  }
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
