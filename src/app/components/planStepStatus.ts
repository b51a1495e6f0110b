// Where each step of the pregnancy care plan stands today: done when the clinic marked it completed or
// a record did it (outcomeReference), upcoming before its window opens, due from the first day of its
// window on; a step whose window has passed undone stays due (overdue), so nothing slips from view.
// Dates are compared as UTC calendar days, as the plan's scheduledPeriod holds dates. A step that
// offers a questionnaire (e.g. the mood check) asks her to answer it while due.
export type PlanStepStatus = 'done' | 'due' | 'upcoming';

export interface PlanStepInput {
  readonly status?: string | null;
  readonly start?: string | null;
  readonly end?: string | null;
  readonly outcomes: number;
}

export interface PlanStepState {
  readonly status: PlanStepStatus;
  /** Due and past the last day of its window. */
  readonly overdue: boolean;
}

function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export function planStepState(step: PlanStepInput, now: Date): PlanStepState {
  if (step.status === 'completed' || step.outcomes > 0) return { status: 'done', overdue: false };
  const today = utcDay(now);
  const start = step.start?.slice(0, 10);
  const end = step.end?.slice(0, 10);
  if (start && today < start) return { status: 'upcoming', overdue: false };
  if (!start && !end) return { status: 'upcoming', overdue: false };
  return { status: 'due', overdue: !!end && today > end };
}

/** The step to show on home: the first due one, else the earliest upcoming one. */
export function nextPlanStep<T extends PlanStepInput>(steps: readonly T[], now: Date): T | undefined {
  const states = steps.map((step) => ({ step, state: planStepState(step, now) }));
  return (
    states.find(({ state }) => state.status === 'due')?.step ??
    states
      .filter(({ state }) => state.status === 'upcoming')
      .sort((a, b) => (a.step.start ?? '9999').localeCompare(b.step.start ?? '9999'))[0]?.step
  );
}

/** The steps of a care plan as the screens read them: title, plain description, window and status. */
export interface PlanStep extends PlanStepInput {
  readonly title: string;
  readonly description?: string | null;
  /** Records that completed the step ("Immunization/1"...). */
  readonly doneBy: readonly string[];
  /** The canonical URL of the Questionnaire the step asks her to answer. */
  readonly questionnaire?: string;
}

interface CarePlanLike {
  readonly instantiatesCanonical?: readonly (string | null)[] | null;
  readonly activity?: ReadonlyArray<{
    readonly outcomeReference?: ReadonlyArray<{ readonly reference?: string | null } | null> | null;
    readonly detail?: {
      readonly status?: string | null;
      readonly description?: string | null;
      readonly instantiatesCanonical?: readonly (string | null)[] | null;
      readonly code?: { readonly text?: string | null } | null;
      readonly scheduledPeriod?: { readonly start?: string | null; readonly end?: string | null } | null;
    } | null;
  } | null> | null;
}

/**
 * The plan the clinic's template made (it names the PlanDefinition it instantiates): the newest such
 * active plan, as the list comes sorted newest first. Plans written by hand are not a schedule.
 */
export function pregnancyPlan<T extends CarePlanLike>(
  plans: readonly (T | null)[] | null | undefined,
): T | undefined {
  return (plans ?? []).find(
    (plan): plan is T => !!plan?.instantiatesCanonical?.some((url) => url?.includes('PlanDefinition')),
  );
}

export function planSteps(plan: CarePlanLike | undefined): PlanStep[] {
  return (plan?.activity ?? []).flatMap((activity) => {
    const detail = activity?.detail;
    if (!detail) return [];
    const doneBy = (activity.outcomeReference ?? []).flatMap((ref) =>
      ref?.reference ? [ref.reference] : [],
    );
    return [
      {
        title: detail.code?.text ?? 'Care step',
        description: detail.description,
        status: detail.status,
        start: detail.scheduledPeriod?.start,
        end: detail.scheduledPeriod?.end,
        outcomes: doneBy.length,
        doneBy,
        questionnaire: detail.instantiatesCanonical?.find((url): url is string => !!url),
      },
    ];
  });
}

/**
 * Where to answer the step's questionnaire now: the journey's screen that opens the form for the
 * canonical URL, while the step is due; undefined when it offers none or is done or upcoming.
 */
export function questionnaireToAnswer(step: PlanStep, now: Date): string | undefined {
  if (!step.questionnaire || planStepState(step, now).status !== 'due') return undefined;
  return `/pregnancy/questionnaire?url=${encodeURIComponent(step.questionnaire)}`;
}
