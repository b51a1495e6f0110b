// Why today cannot be chosen on the calendar: the clinic's booking window (the Schedule's planning
// horizon) starts on a later day, or every time today is taken or past. Undefined when today has
// free times.
import { formatFhirDate } from '../../components/DateTimeDisplay';
import type { Message } from '../../i18n/catalog';
import { getCareStrings as s } from './strings';

export interface Note {
  readonly message: Message;
  readonly values?: Record<string, string>;
}

/** `locale`: the language the clinic's first day is written in. */
export function sameDayNote(
  now: Date,
  freeToday: number,
  horizonStart: string | null | undefined,
  locale: string,
): Note | undefined {
  if (freeToday > 0) return undefined;
  const start = horizonStart ? Date.parse(horizonStart) : NaN;
  if (!Number.isNaN(start) && start > now.getTime()) {
    return { message: s.horizon, values: { date: formatFhirDate(new Date(start).toISOString(), locale) } };
  }
  return { message: s.noneToday };
}
