// The write side of $book and $hold (Medplum's scheduling): the proposed Slots are checked against
// the Schedule's free time and stored with the Appointment in one transaction, or nothing is.
// Double booking is impossible: the transaction first takes a lock per Schedule, so two bookings of
// one Schedule run one after the other and the second sees the first's busy Slot (409).
//
// Who books for whom: a patient only for herself (another Patient is a 403), and her writes are the
// operation's own (her access policy lets her read Slots and her Appointments, not write them: the
// operation is the rule). Anyone else books for a Patient she can read, with her own write rights.
import type {
  Appointment,
  AppointmentParticipant,
  Bundle,
  Resource,
  Schedule,
  Slot,
} from '@medplum/fhirtypes';
import { badRequest, conflict, forbidden, OperationOutcomeError } from '../../fhir';
import type { Database } from '../db';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';
import { describeService, existingTime, freeIntervals, withinHorizon } from './schedule-availability';
import type { ScheduleService } from './schedule-availability';
import { readBookableSchedule, systemReader } from './schedule-find';
import { codingKeys, parseSchedulingParameters } from './scheduling-parameters';
import { addMinutes, overlaps, toInstant } from './scheduling-time';
import type { Interval } from './scheduling-time';

export interface BookingRequest {
  /** The proposed Slots (status ignored: written busy, or busy-tentative for a hold). */
  slots: Slot[];
  /** 'Patient/{id}' the Appointment is for. */
  patient?: string;
  /** Fields of the proposed Appointment to keep (description, comment, reasonCode...). */
  appointment?: Appointment;
  /** Where the slots came from in the input, for error expressions. */
  slotPath: (index: number) => string;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const SCHEDULE_REFERENCE = /^Schedule\/([A-Za-z0-9\-.]{1,64})$/;
const PATIENT_REFERENCE = /^Patient\/[A-Za-z0-9\-.]{1,64}$/;

// What a booking keeps of the proposal sent: the visit's own details, never ids, meta, references the
// operation sets itself (slot, participant) or anything else a caller could slip past her own rights.
const SLOT_FIELDS = [
  'schedule',
  'start',
  'end',
  'serviceCategory',
  'serviceType',
  'specialty',
  'appointmentType',
  'comment',
] as const;
const APPOINTMENT_FIELDS = [
  'serviceCategory',
  'serviceType',
  'specialty',
  'appointmentType',
  'reasonCode',
  'priority',
  'description',
  'comment',
  'patientInstruction',
  'minutesDuration',
] as const;

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  const result = {} as Pick<T, K>;
  for (const key of keys) {
    if (value[key] !== undefined) result[key] = value[key];
  }
  return result;
}

function invalid(text: string, expression?: string): never {
  throw new OperationOutcomeError(badRequest(text, expression));
}

interface CheckedSlot {
  slot: Slot;
  scheduleId: string;
  interval: Interval;
}

function checkSlots(request: BookingRequest): CheckedSlot[] {
  if (request.slots.length === 0) invalid("Missing required parameter 'slot'", 'slot');
  const checked = request.slots.map((slot, index) => {
    const path = request.slotPath(index);
    if (slot.resourceType !== 'Slot') invalid(`Expected a Slot, got ${String(slot.resourceType)}`, path);
    const match = SCHEDULE_REFERENCE.exec(slot.schedule?.reference ?? '');
    if (!match) invalid('Slot missing schedule reference (Schedule/{id})', `${path}.schedule`);
    for (const field of ['start', 'end'] as const) {
      const value = slot[field];
      if (typeof value !== 'string' || !INSTANT.test(value) || Number.isNaN(Date.parse(value))) {
        invalid(
          `Slot.${field} must be an instant with a time zone, got '${String(value)}'`,
          `${path}.${field}`,
        );
      }
    }
    const interval = { start: Date.parse(slot.start), end: Date.parse(slot.end) };
    if (interval.end <= interval.start) invalid('Slot.end must be after Slot.start', `${path}.end`);
    return { slot, scheduleId: match[1], interval };
  });
  if (checked.some((c) => c.interval.start !== checked[0].interval.start))
    invalid('Mismatched slot start times');
  if (checked.some((c) => c.interval.end !== checked[0].interval.end)) invalid('Mismatched slot end times');
  if (new Set(checked.map((c) => c.scheduleId)).size !== checked.length) {
    invalid('Each Schedule may have only one proposed Slot');
  }
  return checked;
}

/** The patient the Appointment is for, by the rules above. */
async function patientFor(
  repo: Repository,
  context: RepositoryContext,
  asked: string | undefined,
): Promise<string | undefined> {
  const own = context.access?.patientCompartment;
  if (asked !== undefined && !PATIENT_REFERENCE.test(asked)) {
    invalid(`patient-reference must be Patient/{id}, got '${asked}'`, 'patient-reference');
  }
  if (own) {
    if (asked !== undefined && asked !== own) {
      throw new OperationOutcomeError({
        ...forbidden,
        issue: [
          {
            severity: 'error',
            code: 'forbidden',
            details: { text: 'A patient may book appointments only for herself' },
          },
        ],
      });
    }
    return own;
  }
  if (asked !== undefined) {
    try {
      await repo.readResource('Patient', asked.split('/')[1]);
    } catch {
      invalid('Invalid patient-reference', 'patient-reference');
    }
  }
  return asked;
}

/** The Schedule's parameters whose visit length is the Slot's and whose service is the Slot's (when coded). */
async function serviceForSlot(
  system: Repository,
  schedule: Schedule,
  checked: CheckedSlot,
): Promise<ScheduleService> {
  const minutes = (checked.interval.end - checked.interval.start) / 60_000;
  const wanted = codingKeys(checked.slot.serviceType);
  for (const params of parseSchedulingParameters(schedule)) {
    if (params.duration !== minutes) continue;
    const service = await describeService(system, schedule, params);
    const offered = codingKeys(service.serviceType);
    if (wanted.size === 0 || [...wanted].some((key) => offered.has(key))) return service;
  }
  return invalid('No matching scheduling parameters found', `${checked.slot.schedule.reference}`);
}

async function checkFree(system: Repository, service: ScheduleService, visit: Interval): Promise<Interval[]> {
  const { bufferBefore, bufferAfter } = service.params;
  const needed = { start: addMinutes(visit.start, -bufferBefore), end: addMinutes(visit.end, bufferAfter) };
  const horizon = withinHorizon(service.schedule, needed);
  if (horizon?.start !== needed.start || horizon.end !== needed.end) {
    invalid('Appointment falls outside schedule planning horizon');
  }
  const existing = await existingTime(system, service, needed);
  if (existing.busy.some((busy) => overlaps(busy, visit))) {
    throw new OperationOutcomeError(conflict('Requested time slot is no longer available'));
  }
  const free = freeIntervals(service, needed, existing);
  if (!free.some((interval) => interval.start <= needed.start && interval.end >= needed.end)) {
    invalid('No availability found at this time');
  }
  // The buffers, kept busy-unavailable so the next booking leaves them free.
  return [
    ...(bufferBefore > 0 ? [{ start: needed.start, end: visit.start }] : []),
    ...(bufferAfter > 0 ? [{ start: visit.end, end: needed.end }] : []),
  ];
}

export async function bookAppointment(
  db: Database,
  context: RepositoryContext,
  request: BookingRequest,
  mode: 'book' | 'hold',
): Promise<Bundle<Appointment | Slot>> {
  const checked = checkSlots(request);
  const repo = new Repository(db, context);
  const patient = await patientFor(repo, context, request.patient);
  const schedules: Schedule[] = [];
  for (const [index, { scheduleId }] of checked.entries()) {
    try {
      schedules.push(await readBookableSchedule(repo, scheduleId));
    } catch (err) {
      if (err instanceof OperationOutcomeError && err.outcome.id === 'not-found') {
        invalid(`Schedule not found: Schedule/${scheduleId}`, `${request.slotPath(index)}.schedule`);
      }
      throw err;
    }
  }
  const project = schedules[0].meta?.project;
  if (schedules.some((schedule) => schedule.meta?.project !== project)) {
    invalid('All Schedules of one Appointment must belong to one project');
  }
  const services: ScheduleService[] = [];
  for (const [index, schedule] of schedules.entries()) {
    services.push(await serviceForSlot(systemReader(db, context, schedule), schedule, checked[index]));
  }
  const visit = checked[0].interval;
  const slotStatus = mode === 'book' ? 'busy' : 'busy-tentative';
  const writerContext: RepositoryContext = context.access?.patientCompartment
    ? { project, author: context.author }
    : context;

  const written = await new Repository(db, writerContext).withTransaction(async (writer) => {
    const system = writer.withContext({ project, author: context.author });
    // One booking per Schedule at a time, locked in a fixed order so two bookings cannot deadlock.
    for (const id of [...new Set(schedules.map((s) => s.id as string))].sort()) {
      await writer.lockName(`schedule-booking:${id}`);
    }
    const bufferSlots: Slot[] = [];
    for (const service of services) {
      for (const buffer of await checkFree(system, service, visit)) {
        bufferSlots.push({
          resourceType: 'Slot',
          schedule: { reference: `Schedule/${service.schedule.id}` },
          status: 'busy-unavailable',
          start: toInstant(buffer.start),
          end: toInstant(buffer.end),
        });
      }
    }
    const slots: Slot[] = [];
    for (const [index, { slot }] of checked.entries()) {
      slots.push(
        await writer.createResource<Slot>({
          resourceType: 'Slot',
          ...pick(slot, SLOT_FIELDS),
          // Only the reference: a display or identifier sent along is not the caller's to write.
          schedule: { reference: `Schedule/${checked[index].scheduleId}` },
          status: slotStatus,
          serviceType: slot.serviceType ?? services[index].serviceType,
        }),
      );
    }
    const buffers: Slot[] = [];
    for (const slot of bufferSlots) buffers.push(await writer.createResource(slot));
    const participant: AppointmentParticipant[] = services.flatMap(({ schedule }) =>
      (schedule.actor ?? []).map((actor) => ({
        actor,
        required: 'required' as const,
        status: 'tentative' as const,
      })),
    );
    if (patient) {
      participant.push({ actor: { reference: patient }, required: 'required', status: 'accepted' });
    }
    const kept = pick(
      request.appointment ?? ({ resourceType: 'Appointment' } as Appointment),
      APPOINTMENT_FIELDS,
    );
    const appointment = await writer.createResource<Appointment>({
      ...kept,
      resourceType: 'Appointment',
      status: mode === 'book' ? 'booked' : 'pending',
      start: checked[0].slot.start,
      end: checked[0].slot.end,
      serviceType: kept.serviceType ?? services[0].serviceType,
      slot: slots.map((slot) => ({ reference: `Slot/${slot.id}` })),
      participant,
    });
    return [appointment, ...slots, ...buffers];
  });
  return {
    resourceType: 'Bundle',
    type: 'transaction-response',
    entry: written.map((resource: Resource) => ({ resource: resource as Appointment | Slot })),
  };
}
