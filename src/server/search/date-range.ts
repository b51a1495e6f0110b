// FHIR dates as half-open ranges [low, high) by their precision (FHIR R4 search, date): '2024' is
// the whole year, '2024-03-05T10:00' the whole minute. Values without a zone are read as UTC.
// Stored rows and query values both go through here, so the prefixes compare ranges with ranges.

export interface DateRange {
  /** ISO instant, inclusive; '-infinity' for an open start. */
  low: string;
  /** ISO instant, exclusive; 'infinity' for an open end. */
  high: string;
}

const DATE_TIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(\.\d+)?)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/** The range a FHIR date, dateTime or instant covers; undefined when it is not one. */
export function parseDateRange(value: string): DateRange | undefined {
  const match = DATE_TIME.exec(value.trim());
  if (!match) {
    return undefined;
  }
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const offsetMinutes = zoneOffsetMinutes(zone);
  if (offsetMinutes === undefined) {
    return undefined;
  }
  const y = Number(year);
  const mo = month ? Number(month) - 1 : 0;
  const d = day ? Number(day) : 1;
  const h = hour ? Number(hour) : 0;
  const mi = minute ? Number(minute) : 0;
  const s = second ? Number(second) : 0;
  const ms = fraction ? Math.floor(Number(fraction) * 1000) : 0;
  if (mo > 11 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) {
    return undefined;
  }
  const start = Date.UTC(y, mo, d, h, mi, s, ms) - offsetMinutes * 60_000;
  let end: number;
  if (!month) end = Date.UTC(y + 1, 0, 1);
  else if (!day) end = Date.UTC(y, mo + 1, 1);
  else if (!hour) end = Date.UTC(y, mo, d + 1);
  else if (!minute) end = Date.UTC(y, mo, d, h + 1) - offsetMinutes * 60_000;
  else if (!second) end = Date.UTC(y, mo, d, h, mi + 1) - offsetMinutes * 60_000;
  else if (!fraction) end = start + 1000;
  else end = start + 1;
  if (!month || !day) {
    // A year or month has no zone: its bounds are the UTC calendar's.
    return { low: new Date(Date.UTC(y, mo, 1)).toISOString(), high: new Date(end).toISOString() };
  }
  if (!hour) {
    return { low: new Date(Date.UTC(y, mo, d)).toISOString(), high: new Date(end).toISOString() };
  }
  return { low: new Date(start).toISOString(), high: new Date(end).toISOString() };
}

function zoneOffsetMinutes(zone: string | undefined): number | undefined {
  if (!zone || zone === 'Z') {
    return 0;
  }
  const sign = zone.startsWith('-') ? -1 : 1;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 14 || minutes > 59) {
    return undefined;
  }
  return sign * (hours * 60 + minutes);
}

/** A Period's range: open ends stay open. */
export function periodRange(start: string | undefined, end: string | undefined): DateRange | undefined {
  const low = start ? parseDateRange(start)?.low : '-infinity';
  const high = end ? parseDateRange(end)?.high : 'infinity';
  if (!low || !high || (!start && !end)) {
    return undefined;
  }
  return { low, high };
}
