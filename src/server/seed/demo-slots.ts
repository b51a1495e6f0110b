// Keeps the demo clinic bookable: the seed writes Dr. Chen's Slots for the 45 days after the seeding
// day and never again, so on every start the days after the last stored slot, up to 45 days from
// today, get their Slots, built by the same code as the seed's (buildDemoSlots). Only creates: a
// stored slot, free or booked, is never changed. Idempotent, and two servers starting together
// write once (the same lock as seedDemoClinic).
import type { Practitioner, Project, Resource, Schedule, Slot } from '@medplum/fhirtypes';
import { parseSearchRequest } from '../../fhir/search/parse';
import {
  buildDemoSlots,
  DEMO_PROJECT_IDENTIFIER,
  DemoCalendar,
  getDemoAccount,
  SLOT_DAYS_AHEAD,
} from './demo';
import type { Repository } from '../repo';

export interface TopUpOptions {
  /** The day the 45 days count from; now by default. */
  today?: Date;
}

export interface TopUpResult {
  /** Slots created (0 when the demo clinic does not exist or is already 45 days ahead). */
  created: number;
}

export async function topUpDemoSlots(repo: Repository, options: TopUpOptions = {}): Promise<TopUpResult> {
  const calendar = new DemoCalendar(options.today ?? new Date());
  const identifier = `identifier=${DEMO_PROJECT_IDENTIFIER.system}|${DEMO_PROJECT_IDENTIFIER.value}`;
  return repo.withTransaction(async (txRepo) => {
    // findMatching holds the seed's lock until commit: racing top-ups (and a racing seed) run one at a time.
    const project = await txRepo.findMatching<Project>('Project', identifier);
    if (!project?.id) {
      return { created: 0 };
    }
    const projectRepo = txRepo.withContext({ ...repo.context, project: project.id });
    let created = 0;
    for (const schedule of await demoSchedules(projectRepo, project.id)) {
      const [last] = await search<Slot>(projectRepo, 'Slot', {
        schedule: `Schedule/${schedule.id}`,
        _sort: '-start',
        _count: '1',
      });
      const fromDay = last?.start ? calendar.dayOf(last.start) + 1 : 1;
      // The new slots refer to the Schedule as the stored ones do (the seed's reference keeps a display).
      const scheduleRef = last?.schedule ?? { reference: `Schedule/${schedule.id}` };
      for (const { slot } of buildDemoSlots(calendar, scheduleRef, fromDay)) {
        await projectRepo.createResource(slot);
        created += 1;
      }
      const horizonEnd = calendar.at(SLOT_DAYS_AHEAD + 1);
      const currentEnd = schedule.planningHorizon?.end;
      if (!currentEnd || Date.parse(currentEnd) < Date.parse(horizonEnd)) {
        await projectRepo.updateResource<Schedule>({
          ...schedule,
          planningHorizon: { ...schedule.planningHorizon, end: horizonEnd },
        });
      }
    }
    return { created };
  });
}

/** The demo's Schedules: Dr. Chen's, in the demo project (the seed writes one). */
async function demoSchedules(repo: Repository, projectId: string): Promise<Schedule[]> {
  const chen = getDemoAccount('dr-chen');
  const practitioners = await search<Practitioner>(repo, 'Practitioner', { email: chen.email });
  const drChen = practitioners.find((p) => p.meta?.project === projectId);
  if (!drChen?.id) {
    return [];
  }
  const schedules = await search<Schedule>(repo, 'Schedule', { actor: `Practitioner/${drChen.id}` });
  return schedules.filter((s) => s.meta?.project === projectId && s.active !== false);
}

async function search<T extends Resource>(
  repo: Repository,
  resourceType: T['resourceType'],
  query: Record<string, string>,
): Promise<T[]> {
  return (await repo.search<T>(parseSearchRequest({ resourceType, query }))).resources;
}
