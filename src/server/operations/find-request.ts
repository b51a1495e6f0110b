// The inputs both $find operations share (Medplum's Schedule/{id}/$find and Appointment/$find):
// a start and end with a time zone, at most 31 days apart, and a page size.
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { OperationInput } from './operation-input';
import { stringInput } from './operation-input';
import { MAX_RANGE_DAYS } from './schedule-availability';
import type { ServiceChoice } from './schedule-availability';
import type { Interval } from './scheduling-time';

// A dateTime with a time and a zone: a bare date or a local time is ambiguous for availability.
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
export const DEFAULT_FIND_COUNT = 20;
export const MAX_FIND_COUNT = 1000;

function invalid(text: string, expression?: string): never {
  throw new OperationOutcomeError(badRequest(text, expression));
}

function instant(input: OperationInput, name: 'start' | 'end'): number {
  const value = stringInput(input, name);
  if (value === undefined) {
    invalid(`Missing required parameter '${name}'`, name);
  }
  const time = Date.parse(value);
  if (!ZONED_DATE_TIME.test(value) || Number.isNaN(time)) {
    invalid(
      `Parameter '${name}' must be a dateTime with a time zone (e.g. 2026-12-01T09:00:00Z), got '${value}'`,
      name,
    );
  }
  return time;
}

export function findRange(input: OperationInput): Interval {
  const range = { start: instant(input, 'start'), end: instant(input, 'end') };
  if (range.end <= range.start) {
    invalid("Invalid search time range: 'end' must be after 'start'", 'end');
  }
  if (range.end - range.start > MAX_RANGE_DAYS * 24 * 60 * 60 * 1000) {
    invalid(`Search range cannot exceed ${MAX_RANGE_DAYS} days`, 'end');
  }
  return range;
}

export function findCount(input: OperationInput): number {
  const raw = stringInput(input, '_count');
  if (raw === undefined) return DEFAULT_FIND_COUNT;
  if (!/^\d{1,9}$/.test(raw)) invalid(`Parameter '_count' must be a whole number, got '${raw}'`, '_count');
  // Larger pages are clamped, as FHIR allows for _count.
  return Math.min(Number(raw), MAX_FIND_COUNT);
}

export function serviceChoice(input: OperationInput): ServiceChoice {
  const reference = stringInput(input, 'service-type-reference');
  if (reference !== undefined && !/^HealthcareService\/[A-Za-z0-9\-.]{1,64}$/.test(reference)) {
    invalid(
      `Parameter 'service-type-reference' must be HealthcareService/{id}, got '${reference}'`,
      'service-type-reference',
    );
  }
  const code = stringInput(input, 'service-type');
  if (code !== undefined && (code === '' || code.endsWith('|'))) {
    invalid(`Parameter 'service-type' must be [system]|code, got '${code}'`, 'service-type');
  }
  return { reference, code };
}
