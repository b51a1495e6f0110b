// Appointment/$find (Medplum's scheduling): proposed Appointments at the times free on every named
// Schedule (`schedule`, one or more Schedule/{id}), between `start` and `end`, for one service
// (`service-type-reference` or `service-type`), at most `_count`. Each proposal is not stored: status
// 'proposed', start, end, the service's codes, every Schedule's actors as required participants who
// need to act, and one contained busy Slot per Schedule, ready to send to $hold or $book.
import type { Appointment, AppointmentParticipant, Bundle, Reference, Slot } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { Database } from '../db';
import type { QueryParams } from '../fhir/paging';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';
import { findCount, findRange, serviceChoice } from './find-request';
import type { InputParameter } from './operation-input';
import { readOperationInput, stringInputs } from './operation-input';
import { freeVisitTimes, scheduleService } from './schedule-availability';
import type { ScheduleService } from './schedule-availability';
import { checkServiceReadable, FIND_PARAMETERS, readBookableSchedule, systemReader } from './schedule-find';
import { toInstant } from './scheduling-time';

const PARAMETERS: readonly InputParameter[] = [
  ...FIND_PARAMETERS,
  { name: 'schedule', kind: 'value', max: '*' },
];
const SCHEDULE_REFERENCE = /^Schedule\/([A-Za-z0-9\-.]{1,64})$/;

export async function findAppointments(
  db: Database,
  context: RepositoryContext,
  query: QueryParams,
  body: unknown,
): Promise<Bundle<Appointment>> {
  const input = readOperationInput('$find', PARAMETERS, query, body);
  const range = findRange(input);
  const count = findCount(input);
  const choice = serviceChoice(input);
  const references = stringInputs(input, 'schedule');
  if (references.length === 0) {
    throw new OperationOutcomeError(badRequest("Missing required parameter 'schedule'", 'schedule'));
  }
  const ids = references.map((reference, index) => {
    const match = SCHEDULE_REFERENCE.exec(reference);
    if (!match) {
      throw new OperationOutcomeError(
        badRequest(
          `Invalid schedule reference '${reference}': expected Schedule/{id}`,
          `Parameters.schedule[${index}]`,
        ),
      );
    }
    return match[1];
  });
  const repo = new Repository(db, context);
  const services: ScheduleService[] = [];
  for (const id of new Set(ids)) {
    const schedule = await readBookableSchedule(repo, id);
    services.push(await scheduleService(systemReader(db, context, schedule), schedule, choice));
  }
  await checkServiceReadable(repo, choice);
  const times = await freeVisitTimes(systemReader(db, context, services[0].schedule), services, range, count);
  const serviceType = services[0].serviceType;
  const entry = times.map((time) => {
    const start = toInstant(time.start);
    const end = toInstant(time.end);
    const contained: Slot[] = services.map(({ schedule }) => ({
      resourceType: 'Slot',
      schedule: { reference: `Schedule/${schedule.id}` },
      status: 'busy',
      start,
      end,
      ...(serviceType.length > 0 ? { serviceType } : {}),
    }));
    const participant: AppointmentParticipant[] = services.flatMap(({ schedule }) =>
      (schedule.actor ?? []).map((actor: Reference) => ({
        actor: actor as AppointmentParticipant['actor'],
        required: 'required' as const,
        status: 'needs-action' as const,
      })),
    );
    const appointment: Appointment = {
      resourceType: 'Appointment',
      status: 'proposed',
      start,
      end,
      ...(serviceType.length > 0 ? { serviceType } : {}),
      participant,
      contained,
    };
    return { resource: appointment };
  });
  return { resourceType: 'Bundle', type: 'searchset', ...(entry.length > 0 ? { entry } : {}) };
}
