// A FHIR date or dateTime shown in the reader's locale inside <time>, so machines keep the exact value.
// A bare date (YYYY, YYYY-MM, YYYY-MM-DD) is shown without a time and without a time-zone shift.
const DATE_ONLY = /^\d{4}(-\d{2}(-\d{2})?)?$/;

export function formatFhirDate(value: string, locale?: string): string {
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
  if (!value) return null;
  return <time dateTime={value}>{formatFhirDate(value)}</time>;
}
