// A FHIR date or dateTime shown in the app's language inside <time>, so machines keep the exact value.
// A bare date (YYYY, YYYY-MM, YYYY-MM-DD) is shown without a time and without a time-zone shift.
const DATE_ONLY = /^\d{4}(-\d{2}(-\d{2})?)?$/;

import { i18n } from '../i18n/i18n';
import { useLocale } from '../i18n/LocaleProvider';

/** Formats in the given locale, by default the app's active language. */
export function formatFhirDate(value: string, locale: string = i18n.locale): string {
  if (DATE_ONLY.test(value)) {
    const [year, month, day] = value.split('-').map(Number);
    const date = new Date(Date.UTC(year, (month ?? 1) - 1, day ?? 1));
    return date.toLocaleDateString(locale, {
      timeZone: 'UTC',
      year: 'numeric',
      month: month ? 'short' : undefined,
      day: day ? 'numeric' : undefined,
    });
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

export function DateTimeDisplay({ value }: { value: string | null | undefined }) {
  const locale = useLocale();
  if (!value) return null;
  return <time dateTime={value}>{formatFhirDate(value, locale)}</time>;
}
