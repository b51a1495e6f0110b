// Schedule/{id}/$find (Medplum's scheduling; SPEC §2 Appointment request screen, §7): the free visit
// times of one Schedule between `start` and `end`, as a searchset Bundle of Slots that are proposals,
// not stored (no id): status 'free', the Schedule, start, end, and the service's codes. Parameters as
// Medplum's: start, end (dateTimes with a zone, at most 31 days apart), service-type-reference
// (HealthcareService/{id}) and, as Medplum's earlier $find and FHIR's Slot search, service-type
// ([system]|code); _count (default 20, at most 1000). The Schedule is read as the caller (an
// unknown or hidden one is a 404, as a read); busy time is counted whoever booked it.
import type { Bundle, Schedule, Slot } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { Database } from '../db';
import type { QueryParams } from '../fhir/paging';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';
import { findCount, findRange, serviceChoice } from './find-request';
import type { InputParameter } from './operation-input';
import { readOperationInput } from './operation-input';
import { freeVisitTimes, scheduleService } from './schedule-availability';
import type { ServiceChoice } from './schedule-availability';
import { toInstant } from './scheduling-time';

export const FIND_PARAMETERS: readonly InputParameter[] = [
  { name: 'start', kind: 'value', max: 1 },
  { name: 'end', kind: 'value', max: 1 },
  { name: 'service-type-reference', kind: 'value', max: 1 },
  { name: 'service-type', kind: 'value', max: 1 },
  { name: '_count', kind: 'value', max: 1 },
];

/** A Schedule the caller may read and that is active. */
export async function readBookableSchedule(repo: Repository, id: string): Promise<Schedule> {
  const schedule = await repo.readResource<Schedule>('Schedule', id);
  if (schedule.active === false) {
    throw new OperationOutcomeError(badRequest(`Schedule ${id} is not active`));
  }
  return schedule;
}

/** The caller must be able to read the HealthcareService she names (Medplum reads it as the caller). */
export async function checkServiceReadable(repo: Repository, choice: ServiceChoice): Promise<void> {
  if (!choice.reference) return;
  const [type, id] = choice.reference.split('/');
  try {
    await repo.readResource(type, id);
  } catch {
    throw new OperationOutcomeError(badRequest('HealthcareService not found', 'service-type-reference'));
  }
}

/** The server's own reader in the Schedule's project, for busy time and services. */
export function systemReader(db: Database, context: RepositoryContext, schedule: Schedule): Repository {
  return new Repository(db, { project: schedule.meta?.project, author: context.author });
}

export async function findScheduleSlots(
  db: Database,
  context: RepositoryContext,
  scheduleId: string,
  query: QueryParams,
  body: unknown,
): Promise<Bundle<Slot>> {
  const input = readOperationInput('$find', FIND_PARAMETERS, query, body);
  const range = findRange(input);
  const count = findCount(input);
  const choice = serviceChoice(input);
  const repo = new Repository(db, context);
  const schedule = await readBookableSchedule(repo, scheduleId);
  await checkServiceReadable(repo, choice);
  const system = systemReader(db, context, schedule);
  const service = await scheduleService(system, schedule, choice);
  const times = await freeVisitTimes(system, [service], range, count);
  const entry = times.map((time) => ({
    resource: {
      resourceType: 'Slot' as const,
      schedule: { reference: `Schedule/${schedule.id}` },
      status: 'free' as const,
      start: toInstant(time.start),
      end: toInstant(time.end),
      ...(service.serviceType.length > 0 ? { serviceType: service.serviceType } : {}),
    },
  }));
  // As Medplum: no `entry` at all when nothing is free.
  return { resourceType: 'Bundle', type: 'searchset', ...(entry.length > 0 ? { entry } : {}) };
}
