// The free-time window of SPEC §7 (§9: one-hour slots, _count 720 = 30 × 24, a window of about 31 days
// from the first of the month), asked of Schedule/{id}/$find, and the grouping of free times by the day
// they start on. Months and days are
// the viewer's local ones: a slot at 23:30 UTC is on the next day for a viewer east of Greenwich.

const DAY_MS = 24 * 60 * 60 * 1000;
export const SLOT_WINDOW_DAYS = 31;
/** SPEC §9: the most free times asked for in one window (30 × 24). */
export const SLOT_COUNT = 720;

export interface SlotTime {
  readonly id: string;
  readonly start: string;
  readonly end?: string | null;
}

/** Local midnight of the first day of `date`'s month. */
export function firstOfMonth(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), 1);
}

/** A FHIR instant without milliseconds, e.g. 2026-11-01T05:00:00Z. */
function fhirInstant(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The shown month's window for $find: from local midnight of the 1st to 31 days later (at most the 31
 * days $find allows), as instants without milliseconds.
 */
export function slotWindow(month: Date): { start: string; end: string } {
  const from = firstOfMonth(month);
  const to = new Date(from.getTime() + SLOT_WINDOW_DAYS * DAY_MS);
  return { start: fhirInstant(from), end: fhirInstant(to) };
}

/** YYYY-MM-DD of the local day `date` falls on. */
export function localDayKey(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Slots that can still be requested (starting after `now`), by the local day they start on, each
 * day's in start order. A slot without a readable start is left out.
 */
export function slotsByLocalDay<S extends SlotTime>(slots: readonly S[], now: Date): Map<string, S[]> {
  const days = new Map<string, S[]>();
  const timed = slots
    .map((slot) => ({ slot, time: Date.parse(slot.start) }))
    .filter(({ time }) => !Number.isNaN(time) && time > now.getTime())
    .sort((a, b) => a.time - b.time);
  for (const { slot, time } of timed) {
    const key = localDayKey(new Date(time));
    const day = days.get(key) ?? [];
    day.push(slot);
    days.set(key, day);
  }
  return days;
}
