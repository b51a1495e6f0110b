// The vitals chart's axes as plain numbers: a linear scale, round value ticks, and time ticks that fall
// on the first day of a pregnancy week when the due date is known (so the axis marks the weeks).
import { pregnancyWeek } from './vitalDisplay';

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;

/** Maps [domainLow, domainHigh] onto [rangeLow, rangeHigh]; a zero-width domain maps to the range's middle. */
export function linearScale(
  [domainLow, domainHigh]: readonly [number, number],
  [rangeLow, rangeHigh]: readonly [number, number],
): (value: number) => number {
  const span = domainHigh - domainLow;
  if (span === 0) return () => (rangeLow + rangeHigh) / 2;
  return (value) => rangeLow + ((value - domainLow) / span) * (rangeHigh - rangeLow);
}

/** Round values (steps of 1, 2 or 5 times a power of ten) inside [low, high], about `count` of them. */
export function valueTicks(low: number, high: number, count = 5): number[] {
  if (!(high > low)) return [low];
  const rough = (high - low) / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((factor) => factor * power >= rough) ?? 10) * power;
  const ticks: number[] = [];
  for (let tick = Math.ceil(low / step) * step; tick <= high + step / 1e6; tick += step) {
    ticks.push(Number(tick.toFixed(10)));
  }
  return ticks;
}

/** The time span the axis shows: the readings' first to last day, or a week around a single day. */
export function timeDomain(times: readonly number[]): [number, number] {
  if (times.length === 0) return [0, 1];
  const first = Math.min(...times);
  const last = Math.max(...times);
  return last > first ? [first, last] : [first - WEEK_MS / 2, last + WEEK_MS / 2];
}

/** The first day of each pregnancy week between start and end (every `every`-th week), in UTC. */
function weekStarts(dueDate: string, start: number, end: number, maxTicks: number): number[] {
  const due = Date.parse(dueDate.length === 10 ? `${dueDate}T00:00:00Z` : dueDate);
  if (Number.isNaN(due)) return [];
  const lastPeriod = Date.UTC(
    new Date(due).getUTCFullYear(),
    new Date(due).getUTCMonth(),
    new Date(due).getUTCDate() - 280,
  );
  const firstWeek = Math.ceil((start - lastPeriod) / WEEK_MS);
  const lastWeek = Math.floor((end - lastPeriod) / WEEK_MS);
  const every = Math.max(1, Math.ceil((lastWeek - firstWeek + 1) / maxTicks));
  const ticks: number[] = [];
  for (let week = firstWeek; week <= lastWeek; week += every) {
    const at = lastPeriod + week * WEEK_MS;
    if (pregnancyWeek(dueDate, new Date(at)) !== undefined) ticks.push(at);
  }
  return ticks;
}

/**
 * Where the time axis puts its ticks: on pregnancy week starts when the due date is known and at least
 * two fall inside the span; otherwise on whole days, a round number of days apart.
 */
export function timeTicks(
  [start, end]: readonly [number, number],
  maxTicks: number,
  dueDate?: string,
): number[] {
  const weeks = dueDate ? weekStarts(dueDate, start, end, maxTicks) : [];
  if (weeks.length >= 2) return weeks;
  const days = (end - start) / DAY_MS;
  const every = [1, 2, 7, 14, 28, 56, 91, 182, 365].find((step) => days / step < maxTicks) ?? 365;
  const firstDay = Math.ceil(start / DAY_MS) * DAY_MS;
  const ticks: number[] = [];
  for (let at = firstDay; at <= end; at += every * DAY_MS) ticks.push(at);
  return ticks;
}
