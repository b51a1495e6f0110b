// The clinic's care-plan bot, run by a Subscription on each Observation that registers a pregnancy
// (registration.ts): it applies the clinic's active pregnancy-care PlanDefinition to the patient with
// PlanDefinition/$apply, through its client's post, as a MedplumClient bot would. One plan per
// pregnancy: a patient whose plan from the template is still running gets none (a corrected due
// date is the same pregnancy). Two registrations at once (her last period and the clinic's due date)
// may both apply: each run then keeps the earliest plan and deletes the others, so exactly one stays.
// Bundled with esbuild (scripts/build-care-plan-bot.ts) into one CommonJS file for the sandbox.
import type { CarePlan, Observation, PlanDefinition, Resource } from '@medplum/fhirtypes';
import {
  PREGNANCY_PLAN_URL,
  REGISTRATION_CODES,
  REGISTRATION_STATUSES,
  RUNNING_PLAN_STATUSES,
} from './registration';

/** The part of the sandbox's FHIR client (MedplumClient's names) this bot uses. */
export interface CarePlanBotClient {
  searchOne<T extends Resource>(
    resourceType: T['resourceType'],
    query: Record<string, string>,
  ): Promise<T | undefined>;
  searchResources<T extends Resource>(
    resourceType: T['resourceType'],
    query: Record<string, string>,
  ): Promise<T[]>;
  fhirUrl(...path: string[]): string;
  post(url: string, body: unknown): Promise<unknown>;
  deleteResource(resourceType: string, id: string): Promise<unknown>;
}

function registers(observation: Observation): boolean {
  if (!REGISTRATION_STATUSES.includes(observation.status)) return false;
  return (observation.code?.coding ?? []).some((c) => REGISTRATION_CODES.includes(`${c.system}|${c.code}`));
}

function runningPlans(medplum: CarePlanBotClient, subject: string): Promise<CarePlan[]> {
  return medplum.searchResources<CarePlan>('CarePlan', {
    subject,
    'instantiates-canonical': PREGNANCY_PLAN_URL,
    status: RUNNING_PLAN_STATUSES.join(','),
    _count: '50',
  });
}

/** The plan every run keeps: the earliest created, then the lowest id. */
function keeper(plans: CarePlan[]): CarePlan {
  return [...plans].sort(
    (a, b) => (a.created ?? '').localeCompare(b.created ?? '') || (a.id ?? '').localeCompare(b.id ?? ''),
  )[0];
}

export async function handler(medplum: CarePlanBotClient, event: { input: unknown }): Promise<string> {
  const observation = event.input as Observation;
  if (observation?.resourceType !== 'Observation' || !registers(observation)) {
    return 'Not a pregnancy registration: nothing to apply';
  }
  const subject = observation.subject?.reference ?? '';
  if (!/^Patient\/[A-Za-z0-9\-.]{1,64}$/.test(subject)) {
    return 'The registration names no Patient as its subject: nothing to apply';
  }
  const existing = await runningPlans(medplum, subject);
  if (existing.length > 0) {
    return `${subject} already has CarePlan/${keeper(existing).id} for this pregnancy`;
  }
  const template = await medplum.searchOne<PlanDefinition>('PlanDefinition', {
    url: PREGNANCY_PLAN_URL,
    status: 'active',
  });
  if (!template?.id) {
    throw new Error(`The clinic has no active PlanDefinition ${PREGNANCY_PLAN_URL} to apply`);
  }
  const created = (await medplum.post(medplum.fhirUrl('PlanDefinition', template.id, '$apply'), {
    resourceType: 'Parameters',
    parameter: [{ name: 'subject', valueString: subject }],
  })) as CarePlan;
  const plans = await runningPlans(medplum, subject);
  const kept = plans.length > 0 ? keeper(plans) : created;
  for (const extra of plans.filter((plan) => plan.id !== kept.id)) {
    // Another run may have deleted it already.
    await medplum.deleteResource('CarePlan', extra.id as string).catch(() => undefined);
  }
  return kept.id === created.id
    ? `Applied PlanDefinition/${template.id} to ${subject}: CarePlan/${created.id}`
    : `${subject} got CarePlan/${kept.id} from a run at the same time; this run's copy was removed`;
}
