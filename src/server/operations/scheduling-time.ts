// Time arithmetic of scheduling: the weekly available times of SchedulingParameters turned into
// instants in the Schedule's time zone, minus busy time, cut into aligned visit times. Pure; the
// zone arithmetic uses Intl, so any IANA zone works and days across a DST change keep their local hours.
import type { AvailableTime, DayOfWeek, SchedulingParameters } from './scheduling-parameters';

export interface Interval {
  start: number;
  end: number;
}

const MINUTE_MS = 60_000;
const DAY_NAMES: readonly DayOfWeek[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function localParts(time: number, timeZone: string): LocalParts {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(time))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute };
}

/** The instant of a local wall time in `timeZone` (the later reading of a time a DST change repeats). */
export function wallTimeToInstant(
  year: number,
  month: number,
  day: number,
  minuteOfDay: number,
  timeZone: string,
): number {
  const asUtc = Date.UTC(year, month - 1, day, 0, minuteOfDay);
  // Two passes: the zone's offset at the guess, then at the corrected guess.
  let guess = asUtc;
  for (let pass = 0; pass < 2; pass++) {
    const local = localParts(guess, timeZone);
    const localAsUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
    guess = asUtc - (localAsUtc - guess);
  }
  return guess;
}

/** The available intervals of `params` inside `range`, day by local day. */
export function resolveAvailability(
  params: SchedulingParameters,
  range: Interval,
  timeZone: string,
): Interval[] {
  const result: Interval[] = [];
  // Start a day early: an availability that runs past midnight reaches into the range.
  const first = localParts(range.start - 24 * 60 * MINUTE_MS, timeZone);
  let cursor = Date.UTC(first.year, first.month - 1, first.day);
  while (true) {
    const date = new Date(cursor);
    const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
    const dayStart = wallTimeToInstant(year, month, day, 0, timeZone);
    if (dayStart >= range.end) break;
    const dayName = DAY_NAMES[date.getUTCDay()];
    for (const time of params.availability.filter((t: AvailableTime) => t.days.includes(dayName))) {
      const start = wallTimeToInstant(year, month, day, time.startMinute, timeZone);
      const endDay = time.endMinute <= time.startMinute ? 1 : 0;
      const end = wallTimeToInstant(year, month, day + endDay, time.endMinute, timeZone);
      const clipped = { start: Math.max(start, range.start), end: Math.min(end, range.end) };
      if (clipped.start < clipped.end) result.push(clipped);
    }
    cursor += 24 * 60 * MINUTE_MS;
  }
  return result;
}

/** Sorted, with overlapping or touching intervals merged. */
export function normalizeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged[merged.length - 1];
    if (last && interval.start <= last.end) {
      last.end = Math.max(last.end, interval.end);
    } else {
      merged.push({ ...interval });
    }
  }
  return merged;
}

/** `available` minus every `blocked` interval. */
export function removeIntervals(available: readonly Interval[], blocked: readonly Interval[]): Interval[] {
  const blocks = normalizeIntervals(blocked);
  const result: Interval[] = [];
  for (const interval of normalizeIntervals(available)) {
    let start = interval.start;
    for (const block of blocks) {
      if (block.end <= start || block.start >= interval.end) continue;
      if (block.start > start) result.push({ start, end: block.start });
      start = Math.max(start, block.end);
    }
    if (start < interval.end) result.push({ start, end: interval.end });
  }
  return result;
}

export function overlaps(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end;
}

/**
 * Visit times of `duration` minutes inside each interval (already shrunk by the buffers), starting on
 * the alignment grid: minutes after local midnight ≡ alignmentOffset (mod alignmentInterval).
 */
export function alignedVisitTimes(
  intervals: readonly Interval[],
  params: SchedulingParameters,
  timeZone: string,
  limit: number,
): Interval[] {
  const result: Interval[] = [];
  const step = params.alignmentInterval;
  for (const interval of intervals) {
    // The first whole minute at or after the start.
    let start = Math.ceil(interval.start / MINUTE_MS) * MINUTE_MS;
    const local = localParts(start, timeZone);
    const minute = local.hour * 60 + local.minute;
    const remainder = (((minute - params.alignmentOffset) % step) + step) % step;
    if (remainder !== 0) start += (step - remainder) * MINUTE_MS;
    while (start + params.duration * MINUTE_MS <= interval.end) {
      if (result.length >= limit) return result;
      result.push({ start, end: start + params.duration * MINUTE_MS });
      start += step * MINUTE_MS;
    }
  }
  return result;
}

/** A FHIR instant in UTC, e.g. '2026-12-01T09:00:00.000Z' (as Medplum writes its proposed slots). */
export function toInstant(time: number): string {
  return new Date(time).toISOString();
}

export function addMinutes(time: number, minutes: number): number {
  return time + minutes * MINUTE_MS;
}
