// Where each step of the pregnancy care plan stands today: done when the clinic marked it completed or
// a record did it (outcomeReference), upcoming before its window opens, due from the first day of its
// window on; a step whose window has passed undone stays due (overdue), so nothing slips from view.
// Dates are compared as UTC calendar days, as the plan's scheduledPeriod holds dates.
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
