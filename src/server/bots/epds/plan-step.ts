// A completed screening response marks its step of the patient's care plan done: the running plan's
// activity that offers this questionnaire (detail.instantiatesCanonical, from the template's
// definitionCanonical) and whose window had opened by the day she answered, the latest such when
// several have, gets the response as its outcome. A response linked already (a retried run), or one
// sent before any such window opened, changes nothing.
// The plan is written only over the version read (If-Match): two responses scored at once, or a
// clinician editing the plan meanwhile, would otherwise overwrite each other's change. On a 412 the
// plan is read again and the step chosen again, a bounded number of times.
import type {
  CarePlan,
  CarePlanActivity,
  OperationOutcome,
  QuestionnaireResponse,
  Resource,
} from '@medplum/fhirtypes';

export interface PlanStepClient {
  searchResources<T extends Resource>(
    resourceType: T['resourceType'],
    query: Record<string, string>,
  ): Promise<T[]>;
  /** `options.headers['If-Match']` as MedplumClient sends it; a stale version throws with a 412 outcome. */
  updateResource<T extends Resource>(resource: T, options?: { headers: Record<string, string> }): Promise<T>;
}

/** Reads and conditional writes of the plan before giving up (each loss means another writer won). */
export const PLAN_UPDATE_ATTEMPTS = 5;

/** Whether an error is a 412 (the version read is no longer current), as MedplumClient reports it. */
function isPreconditionFailed(err: unknown): boolean {
  const outcome = (err as { outcome?: OperationOutcome } | undefined)?.outcome;
  return outcome?.resourceType === 'OperationOutcome' && outcome.id === 'precondition-failed';
}

function offers(activity: CarePlanActivity, questionnaire: string): boolean {
  return (activity.detail?.instantiatesCanonical ?? []).some((url) => url.split('|')[0] === questionnaire);
}

function isDone(activity: CarePlanActivity): boolean {
  return activity.detail?.status === 'completed' || (activity.outcomeReference?.length ?? 0) > 0;
}

/** The index of the activity this response completes, or -1. */
export function stepAnswered(plan: CarePlan, questionnaire: string, answeredOn: string): number {
  let best = -1;
  (plan.activity ?? []).forEach((activity, index) => {
    const start = activity.detail?.scheduledPeriod?.start?.slice(0, 10);
    if (!offers(activity, questionnaire) || isDone(activity) || !start || start > answeredOn) return;
    const bestStart = plan.activity?.[best]?.detail?.scheduledPeriod?.start ?? '';
    if (best < 0 || start > bestStart) best = index;
  });
  return best;
}

/** The plan step marked done ('CarePlan/1 activity 7'), or undefined when none was. */
export async function markPlanStepDone(
  medplum: PlanStepClient,
  response: QuestionnaireResponse,
  questionnaire: string,
): Promise<string | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await markOnce(medplum, response, questionnaire);
    } catch (err) {
      if (!isPreconditionFailed(err) || attempt >= PLAN_UPDATE_ATTEMPTS) throw err;
    }
  }
}

async function markOnce(
  medplum: PlanStepClient,
  response: QuestionnaireResponse,
  questionnaire: string,
): Promise<string | undefined> {
  const responseRef = `QuestionnaireResponse/${response.id}`;
  const plans = await medplum.searchResources<CarePlan>('CarePlan', {
    subject: response.subject?.reference ?? '',
    status: 'active',
    _count: '20',
  });
  if (
    plans.some((plan) =>
      plan.activity?.some((a) => a.outcomeReference?.some((r) => r.reference === responseRef)),
    )
  ) {
    return undefined;
  }
  const answeredOn = (response.authored ?? new Date().toISOString()).slice(0, 10);
  for (const plan of plans) {
    const index = stepAnswered(plan, questionnaire, answeredOn);
    if (index < 0) continue;
    const activity = (plan.activity ?? []).map((a, i) =>
      i === index
        ? {
            ...a,
            outcomeReference: [...(a.outcomeReference ?? []), { reference: responseRef }],
            detail: a.detail ? { ...a.detail, status: 'completed' as const } : a.detail,
          }
        : a,
    );
    const version = plan.meta?.versionId;
    await medplum.updateResource<CarePlan>(
      { ...plan, activity },
      version ? { headers: { 'If-Match': `W/"${version}"` } } : undefined,
    );
    return `CarePlan/${plan.id} activity ${index}`;
  }
  return undefined;
}
