// Where a pregnancy stands from its estimated due date: 40 weeks after the first day of the last
// period, so the gestational age today is 280 days minus the days left. Home and the timeline share it.
const DAY_MS = 24 * 60 * 60 * 1000;
export const PREGNANCY_DAYS = 280;
/** Daily kick counts start in the third trimester: the timeline offers them, the kick count screen allows them. */
export const KICK_COUNT_FROM_WEEK = 28;

export interface PregnancyProgress {
  readonly weeks: number;
  readonly days: number;
  readonly trimester: 1 | 2 | 3;
}

/** Undefined when the date is unreadable or the due date lies outside the pregnancy (past or > 40 weeks). */
export function pregnancyProgress(dueDate: string, now: Date): PregnancyProgress | undefined {
  const due = Date.parse(dueDate.length === 10 ? `${dueDate}T00:00:00Z` : dueDate);
  if (Number.isNaN(due)) return undefined;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const daysLeft = Math.round((due - today) / DAY_MS);
  const elapsed = PREGNANCY_DAYS - daysLeft;
  if (elapsed < 0 || daysLeft < 0) return undefined;
  const weeks = Math.floor(elapsed / 7);
  return { weeks, days: elapsed % 7, trimester: weeks < 14 ? 1 : weeks < 28 ? 2 : 3 };
}

/** YYYY-MM-DD of a UTC day. */
function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The due date (YYYY-MM-DD) 280 days after the first day of the last period; undefined if unreadable. */
export function dueDateFromLastPeriod(lastPeriod: string): string | undefined {
  const start = Date.parse(`${lastPeriod.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(start) ? undefined : dayOf(start + PREGNANCY_DAYS * DAY_MS);
}

/** The due date recorded by the clinic, else the one worked out from the last period she entered. */
export function effectiveDueDate(
  recorded: string | null | undefined,
  lastPeriod: string | null | undefined,
): { dueDate?: string; fromLastPeriod: boolean } {
  if (recorded) return { dueDate: recorded, fromLastPeriod: false };
  const dueDate = lastPeriod ? dueDateFromLastPeriod(lastPeriod) : undefined;
  return { dueDate, fromLastPeriod: !!dueDate };
}
