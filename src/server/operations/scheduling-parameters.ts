// The availability a Schedule declares, in Medplum's SchedulingParameters extension
// (https://medplum.com/fhir/StructureDefinition/SchedulingParameters): weekly available times
// (`availability` → `availableTime` with `daysOfWeek`, `availableStartTime`/`availableEndTime` or
// `allDay`, R5's Availability in R4 extension form), the visit `duration`, `bufferBefore`/`bufferAfter`,
// `alignmentInterval`/`alignmentOffset`, the `timezone`, and the HealthcareService it is for
// (`service`). A Schedule may carry one per service. A malformed extension is the clinic's data
// error, answered as a 400 naming the attribute, as Medplum does.
import type { CodeableConcept, Extension, Resource, Schedule } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';

export const SCHEDULING_PARAMETERS_URL = 'https://medplum.com/fhir/StructureDefinition/SchedulingParameters';
export const TIMEZONE_EXTENSION_URL = 'http://hl7.org/fhir/StructureDefinition/timezone';

export type DayOfWeek = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
const DAYS: readonly DayOfWeek[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(:([0-5]\d))?$/;

export interface AvailableTime {
  days: DayOfWeek[];
  /** Minutes after local midnight; an end at or before the start is on the next day (allDay: 0 → 0). */
  startMinute: number;
  endMinute: number;
}

export interface SchedulingParameters {
  availability: AvailableTime[];
  /** All in minutes. */
  duration: number;
  bufferBefore: number;
  bufferAfter: number;
  alignmentInterval: number;
  alignmentOffset: number;
  timezone?: string;
  /** 'HealthcareService/{id}' when the parameters are for one service. */
  service?: string;
}

const MINUTES_PER_UNIT: Record<string, number> = { min: 1, h: 60, d: 24 * 60, wk: 7 * 24 * 60 };

function fail(text: string): never {
  throw new OperationOutcomeError(badRequest(text, 'Schedule.extension'));
}

function subExtensions(extension: Extension, url: string): Extension[] {
  return (extension.extension ?? []).filter((sub) => sub.url === url);
}

function atMostOne(extension: Extension, url: string): Extension | undefined {
  const found = subExtensions(extension, url);
  if (found.length > 1) {
    fail(`Scheduling parameter attribute '${url}' has too many values`);
  }
  return found[0];
}

function minutesOf(
  extension: Extension | undefined,
  url: string,
  fallback: number | undefined,
): number | undefined {
  if (!extension) {
    return fallback;
  }
  const { value, unit, comparator } = extension.valueDuration ?? {};
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || comparator !== undefined) {
    fail(`Scheduling parameter attribute '${url}' must be a valueDuration with a value of 0 or more`);
  }
  const perUnit = unit === undefined ? undefined : MINUTES_PER_UNIT[unit];
  if (perUnit === undefined) {
    fail(`Scheduling parameter attribute '${url}' has unit '${String(unit)}': use min, h, d or wk`);
  }
  return value * perUnit;
}

function minuteOfDay(value: string | undefined, url: string): number {
  const match = value === undefined ? null : TIME.exec(value);
  if (!match) {
    fail(`Scheduling parameter attribute 'availability.availableTime.${url}' must be a time (hh:mm:ss)`);
  }
  return Number(match[1]) * 60 + Number(match[2]);
}

function availableTimes(availability: Extension): AvailableTime[] {
  return subExtensions(availability, 'availableTime').map((time) => {
    const days = subExtensions(time, 'daysOfWeek').map((day) => {
      if (!DAYS.includes(day.valueCode as DayOfWeek)) {
        fail(
          `Invalid SchedulingParameters.availability.availableTime.daysOfWeek entry '${String(day.valueCode)}'`,
        );
      }
      return day.valueCode as DayOfWeek;
    });
    if (atMostOne(time, 'allDay')?.valueBoolean === true) {
      return { days, startMinute: 0, endMinute: 0 };
    }
    const start = atMostOne(time, 'availableStartTime');
    const end = atMostOne(time, 'availableEndTime');
    if (!start || !end) {
      fail('availableTime needs both availableStartTime and availableEndTime (or allDay)');
    }
    return {
      days,
      startMinute: minuteOfDay(start.valueTime, 'availableStartTime'),
      endMinute: minuteOfDay(end.valueTime, 'availableEndTime'),
    };
  });
}

function parseOne(extension: Extension): SchedulingParameters {
  const duration = minutesOf(atMostOne(extension, 'duration'), 'duration', undefined);
  if (duration === undefined || duration <= 0) {
    fail("Scheduling parameter attribute 'duration' is missing");
  }
  const availability = subExtensions(extension, 'availability').flatMap(availableTimes);
  const timezone = atMostOne(extension, 'timezone')?.valueCode;
  if (timezone !== undefined && !isTimeZone(timezone)) {
    fail(`Scheduling parameter attribute 'timezone' is not a known time zone: '${timezone}'`);
  }
  const service = atMostOne(extension, 'service')?.valueReference?.reference;
  // "On the hour" is stored as 0 and used as a modulus of 60, as Medplum reads it.
  const interval = minutesOf(atMostOne(extension, 'alignmentInterval'), 'alignmentInterval', 60) ?? 60;
  return {
    // Without an availability the time is open around the clock (Medplum's default).
    availability:
      availability.length > 0 ? availability : [{ days: [...DAYS], startMinute: 0, endMinute: 0 }],
    duration,
    bufferBefore: minutesOf(atMostOne(extension, 'bufferBefore'), 'bufferBefore', 0) ?? 0,
    bufferAfter: minutesOf(atMostOne(extension, 'bufferAfter'), 'bufferAfter', 0) ?? 0,
    alignmentInterval: interval === 0 ? 60 : interval,
    alignmentOffset: minutesOf(atMostOne(extension, 'alignmentOffset'), 'alignmentOffset', 0) ?? 0,
    ...(timezone ? { timezone } : {}),
    ...(service ? { service } : {}),
  };
}

/** Every SchedulingParameters extension of the Schedule, parsed. */
export function parseSchedulingParameters(schedule: Schedule): SchedulingParameters[] {
  return (schedule.extension ?? []).filter((ext) => ext.url === SCHEDULING_PARAMETERS_URL).map(parseOne);
}

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The IANA zone of a resource's timezone extension (e.g. the Schedule's Practitioner), if any. */
export function timeZoneOf(resource: Resource): string | undefined {
  const value = (resource as { extension?: Extension[] }).extension?.find(
    (ext) => ext.url === TIMEZONE_EXTENSION_URL,
  )?.valueCode;
  return value && isTimeZone(value) ? value : undefined;
}

/** 'system|code' (or '|code', or 'code') of each coding, for matching service types. */
export function codingKeys(concepts: readonly CodeableConcept[] | undefined): Set<string> {
  const keys = new Set<string>();
  for (const concept of concepts ?? []) {
    for (const coding of concept.coding ?? []) {
      if (coding.code) keys.add(`${coding.system ?? ''}|${coding.code}`);
    }
  }
  return keys;
}
