// A Schedule's free time for one service, as Medplum's $find and $book compute it: the weekly
// availability of its SchedulingParameters (in its time zone, inside its planning horizon), plus
// free Slots of that service, minus busy Slots and the booked Appointments of its practitioners.
// Busy time is read with the server's own rights: a patient must not see who else is booked, but
// her free times must not offer a taken hour either; only free intervals leave this module.
import type {
  Appointment,
  CodeableConcept,
  HealthcareService,
  Reference,
  Resource,
  Schedule,
  Slot,
} from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { parseSearchRequest } from '../../fhir/search/parse';
import type { Repository } from '../repo';
import { codingKeys, parseSchedulingParameters, timeZoneOf } from './scheduling-parameters';
import type { SchedulingParameters } from './scheduling-parameters';
import {
  addMinutes,
  alignedVisitTimes,
  normalizeIntervals,
  overlaps,
  removeIntervals,
  resolveAvailability,
} from './scheduling-time';
import type { Interval } from './scheduling-time';

export const SERVICE_TYPE_REFERENCE_URL = 'https://medplum.com/fhir/service-type-reference';
/** Medplum's limit on one search window. */
export const MAX_RANGE_DAYS = 31;
// Busy Slots are found by their start; one that began this long before the window may still cover it.
const LONGEST_BUSY_DAYS = 7;
const SLOT_PAGE = 1000;
const BUSY_SLOT = new Set(['busy', 'busy-tentative', 'busy-unavailable']);
const BUSY_APPOINTMENT = 'booked,pending,arrived,checked-in';
const PERSON_ACTORS = new Set(['Practitioner', 'PractitionerRole']);

/** Which service a caller asks about: a HealthcareService, a coding, or (unnamed) the Schedule's only one. */
export interface ServiceChoice {
  reference?: string;
  /** 'system|code', or 'code' for any system. */
  code?: string;
}

export interface ScheduleService {
  schedule: Schedule;
  params: SchedulingParameters;
  timeZone: string;
  /** The service's codes, written on the Slots and Appointments proposed and booked. */
  serviceType: CodeableConcept[];
}

function invalid(text: string, expression?: string): never {
  throw new OperationOutcomeError(badRequest(text, expression));
}

/** The service's HealthcareService, read as the server (the caller's read was checked by the route). */
async function readService(system: Repository, reference: string): Promise<HealthcareService | undefined> {
  const [type, id] = reference.split('/');
  if (type !== 'HealthcareService' || !id) return undefined;
  try {
    return await system.readResource<HealthcareService>(type, id);
  } catch {
    return undefined;
  }
}

/** The HealthcareService references of Schedule.serviceType (Medplum's service-type-reference extension). */
function serviceReferences(schedule: Schedule): string[] {
  return (schedule.serviceType ?? []).flatMap((concept) =>
    (concept.extension ?? [])
      .filter((ext) => ext.url === SERVICE_TYPE_REFERENCE_URL)
      .flatMap((ext) => (ext.valueReference?.reference ? [ext.valueReference.reference] : [])),
  );
}

/** Schedule.serviceType without the reference extension: the codes alone. */
function plainConcepts(concepts: readonly CodeableConcept[] | undefined): CodeableConcept[] {
  return (concepts ?? []).map((concept) => {
    const { extension: _extension, ...rest } = concept;
    return rest;
  });
}

function matchesCode(keys: Set<string>, code: string): boolean {
  return code.includes('|') ? keys.has(code) : [...keys].some((key) => key.endsWith(`|${code}`));
}

/** Picks the Schedule's SchedulingParameters for the service asked for, and its time zone and codes. */
export async function scheduleService(
  system: Repository,
  schedule: Schedule,
  choice: ServiceChoice,
): Promise<ScheduleService> {
  const all = parseSchedulingParameters(schedule);
  if (all.length === 0) {
    invalid(
      `Schedule/${schedule.id} has no SchedulingParameters extension, so it offers no times`,
      'Schedule.extension',
    );
  }
  const services = new Map<string, HealthcareService | undefined>();
  for (const params of all) {
    if (params.service && !services.has(params.service)) {
      services.set(params.service, await readService(system, params.service));
    }
  }
  const conceptsOf = (params: SchedulingParameters): CodeableConcept[] => {
    const service = params.service ? services.get(params.service) : undefined;
    return plainConcepts(service?.type ?? schedule.serviceType);
  };

  let chosen: SchedulingParameters[];
  if (choice.reference) {
    const offered = new Set([
      ...serviceReferences(schedule),
      ...all.flatMap((p) => (p.service ? [p.service] : [])),
    ]);
    if (!offered.has(choice.reference)) {
      invalid('Schedule is not schedulable for requested service type', 'service-type-reference');
    }
    // Parameters for that service, else the Schedule's parameters for any service.
    chosen = all.filter((p) => p.service === choice.reference);
    if (chosen.length === 0) chosen = all.filter((p) => !p.service);
  } else if (choice.code) {
    const code = choice.code;
    chosen = all.filter((params) => matchesCode(codingKeys(conceptsOf(params)), code));
    if (chosen.length === 0) {
      invalid(`Schedule/${schedule.id} offers no service of type '${code}'`, 'service-type');
    }
  } else {
    chosen = all;
  }
  if (chosen.length === 0) {
    invalid(
      `Schedule/${schedule.id} has no scheduling parameters for ${choice.reference}`,
      'service-type-reference',
    );
  }
  if (chosen.length > 1) {
    invalid(
      `Schedule/${schedule.id} offers several services: name one with service-type-reference or service-type`,
      'service-type-reference',
    );
  }
  return describeService(system, schedule, chosen[0]);
}

/** One of the Schedule's SchedulingParameters with its time zone and its service's codes. */
export async function describeService(
  system: Repository,
  schedule: Schedule,
  params: SchedulingParameters,
): Promise<ScheduleService> {
  const timeZone = params.timezone ?? (await actorTimeZone(system, schedule));
  if (!timeZone) {
    invalid(
      'No timezone specified: give the SchedulingParameters a timezone, or its actor a timezone extension',
    );
  }
  const service = params.service ? await readService(system, params.service) : undefined;
  return { schedule, params, timeZone, serviceType: plainConcepts(service?.type ?? schedule.serviceType) };
}

async function actorTimeZone(system: Repository, schedule: Schedule): Promise<string | undefined> {
  for (const actor of schedule.actor ?? []) {
    const [type, id] = (actor.reference ?? '').split('/');
    if (!type || !id) continue;
    try {
      const zone = timeZoneOf(await system.readResource<Resource>(type, id));
      if (zone) return zone;
    } catch {
      // An actor the server cannot read gives no zone.
    }
  }
  return undefined;
}

/** The range clamped to the Schedule's planning horizon (undefined when nothing is left). */
export function withinHorizon(schedule: Schedule, range: Interval): Interval | undefined {
  const horizonStart = schedule.planningHorizon?.start ? Date.parse(schedule.planningHorizon.start) : NaN;
  const horizonEnd = schedule.planningHorizon?.end ? Date.parse(schedule.planningHorizon.end) : NaN;
  const start = Number.isNaN(horizonStart) ? range.start : Math.max(range.start, horizonStart);
  const end = Number.isNaN(horizonEnd) ? range.end : Math.min(range.end, horizonEnd);
  return start < end ? { start, end } : undefined;
}

export interface ExistingTime {
  /** Time no one may book: busy Slots and booked Appointments of the Schedule's practitioners. */
  busy: Interval[];
  /** Free Slots of this service (or of none), which open time outside the weekly availability. */
  free: Interval[];
}

/** What is already on the Schedule around `range`, read with `system` (inside the booking's transaction when booking). */
export async function existingTime(
  system: Repository,
  service: ScheduleService,
  range: Interval,
): Promise<ExistingTime> {
  const { schedule } = service;
  const from = new Date(addMinutes(range.start, -LONGEST_BUSY_DAYS * 24 * 60)).toISOString();
  const to = new Date(range.end).toISOString();
  const slots = await system.search<Slot>(
    parseSearchRequest({
      resourceType: 'Slot',
      query: {
        schedule: `Schedule/${schedule.id}`,
        start: [`ge${from}`, `lt${to}`],
        _count: String(SLOT_PAGE),
      },
    }),
  );
  if (slots.resources.length >= SLOT_PAGE) {
    invalid('Too many slots found in range; try searching with smaller bounds');
  }
  const busy: Interval[] = [];
  const free: Interval[] = [];
  const wanted = codingKeys(service.serviceType);
  for (const slot of slots.resources) {
    const interval = { start: Date.parse(slot.start), end: Date.parse(slot.end) };
    if (Number.isNaN(interval.start) || Number.isNaN(interval.end) || !overlaps(interval, range)) continue;
    if (BUSY_SLOT.has(slot.status)) {
      busy.push(interval);
    } else if (slot.status === 'free') {
      const own = codingKeys(slot.serviceType);
      const anyService = (slot.serviceType ?? []).length === 0;
      if (anyService || [...own].some((key) => wanted.has(key))) {
        free.push({ start: Math.max(interval.start, range.start), end: Math.min(interval.end, range.end) });
      }
    }
  }
  for (const actor of schedule.actor ?? []) {
    if (!actor.reference || !PERSON_ACTORS.has(actor.reference.split('/')[0])) continue;
    busy.push(...(await bookedAppointments(system, actor, from, to, range)));
  }
  return { busy, free };
}

async function bookedAppointments(
  system: Repository,
  actor: Reference,
  from: string,
  to: string,
  range: Interval,
): Promise<Interval[]> {
  const appointments = await system.search<Appointment>(
    parseSearchRequest({
      resourceType: 'Appointment',
      query: {
        actor: actor.reference as string,
        date: [`ge${from}`, `lt${to}`],
        status: BUSY_APPOINTMENT,
        _count: String(SLOT_PAGE),
      },
    }),
  );
  return appointments.resources.flatMap((appointment) => {
    const interval = { start: Date.parse(appointment.start ?? ''), end: Date.parse(appointment.end ?? '') };
    return Number.isNaN(interval.start) || Number.isNaN(interval.end) || !overlaps(interval, range)
      ? []
      : [interval];
  });
}

/** The free intervals of the service inside `range` (already clamped to the horizon). */
export function freeIntervals(service: ScheduleService, range: Interval, existing: ExistingTime): Interval[] {
  const weekly = resolveAvailability(service.params, range, service.timeZone);
  return removeIntervals(normalizeIntervals([...weekly, ...existing.free]), existing.busy);
}

function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const result: Interval[] = [];
  for (const x of a) {
    for (const y of b) {
      const start = Math.max(x.start, y.start);
      const end = Math.min(x.end, y.end);
      if (start < end) result.push({ start, end });
    }
  }
  return normalizeIntervals(result);
}

/**
 * The visit times free on every one of `services` inside `range` (at most `count`): each Schedule's
 * free time shrunk by its buffers, intersected, cut on the shared duration and alignment grid.
 */
export async function freeVisitTimes(
  system: Repository,
  services: readonly ScheduleService[],
  range: Interval,
  count: number,
): Promise<Interval[]> {
  const first = services[0];
  for (const attribute of ['duration', 'alignmentInterval', 'alignmentOffset'] as const) {
    if (services.some((service) => service.params[attribute] !== first.params[attribute])) {
      invalid(`Scheduling parameters attribute '${attribute}' does not match`);
    }
  }
  let shared: Interval[] | undefined;
  for (const service of services) {
    const clamped = withinHorizon(service.schedule, range);
    if (!clamped) return [];
    const { bufferBefore, bufferAfter } = service.params;
    // Buffers need free time too: look that far beyond the range, then keep the visit inside it.
    const wide = {
      start: addMinutes(clamped.start, -bufferBefore),
      end: addMinutes(clamped.end, bufferAfter),
    };
    const existing = await existingTime(system, service, wide);
    const free = freeIntervals(service, wide, existing)
      .map((interval) => ({
        start: Math.max(addMinutes(interval.start, bufferBefore), clamped.start),
        end: Math.min(addMinutes(interval.end, -bufferAfter), clamped.end),
      }))
      .filter((interval) => interval.end - interval.start >= service.params.duration * 60_000);
    shared = shared ? intersect(shared, free) : free;
  }
  return alignedVisitTimes(shared ?? [], first.params, first.timeZone, count);
}
