// A completed screening response marks its step of the patient's care plan done: the running plan's
// activity that offers this questionnaire (detail.instantiatesCanonical, from the template's
// definitionCanonical) and whose window had opened by the day she answered, the latest such when
// several have, gets the response as its outcome. A response linked already (a retried run), or one
// sent before any such window opened, changes nothing.
import type { CarePlan, CarePlanActivity, QuestionnaireResponse, Resource } from '@medplum/fhirtypes';

export interface PlanStepClient {
  searchResources<T extends Resource>(
    resourceType: T['resourceType'],
    query: Record<string, string>,
  ): Promise<T[]>;
  updateResource<T extends Resource>(resource: T): Promise<T>;
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
    await medplum.updateResource<CarePlan>({ ...plan, activity });
    return `CarePlan/${plan.id} activity ${index}`;
  }
  return undefined;
}
