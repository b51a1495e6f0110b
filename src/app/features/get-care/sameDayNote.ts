// Why today cannot be chosen on the calendar: the clinic's booking window (the Schedule's planning
// horizon) starts on a later day, or every time today is taken or past. Undefined when today has
// free times.
import { formatFhirDate } from '../../components/DateTimeDisplay';

export function sameDayNote(now: Date, freeToday: number, horizonStart?: string | null): string | undefined {
  if (freeToday > 0) return undefined;
  const start = horizonStart ? Date.parse(horizonStart) : NaN;
  if (!Number.isNaN(start) && start > now.getTime()) {
    const first = formatFhirDate(new Date(start).toISOString());
    return (
      `Same-day appointments can't be booked online: the clinic takes requests from ${first}. ` +
      'If you need care today, send your care team a message.'
    );
  }
  return 'There are no free times left today. If you need care today, send your care team a message.';
}
