// The pregnancy timeline's status rules of the clinic's care plan: done, due now or upcoming, at the
// boundaries of a step's window (UTC calendar days); a step offering a questionnaire asks for it while due.
import {
  nextPlanStep,
  planStepState,
  planSteps,
  questionnaireToAnswer,
} from '../../../src/app/components/planStepStatus';

const at = (iso: string) => new Date(iso);
const glucose = { start: '2026-11-02', end: '2026-11-30', outcomes: 0 };

describe('planStepState', () => {
  test('upcoming until the last moment of the day before the window opens', () => {
    expect(planStepState(glucose, at('2026-11-01T23:59:59Z'))).toEqual({
      status: 'upcoming',
      overdue: false,
    });
  });

  test('due from the first day of the window to its last day, inclusive', () => {
    expect(planStepState(glucose, at('2026-11-02T00:00:00Z'))).toEqual({ status: 'due', overdue: false });
    expect(planStepState(glucose, at('2026-11-30T23:59:59Z'))).toEqual({ status: 'due', overdue: false });
  });

  test('still due, and overdue, the day after the window closes', () => {
    expect(planStepState(glucose, at('2026-12-01T00:00:00Z'))).toEqual({ status: 'due', overdue: true });
  });

  test('done when completed or when a record did it, whatever the date', () => {
    expect(planStepState({ ...glucose, status: 'completed' }, at('2026-10-01T00:00:00Z')).status).toBe(
      'done',
    );
    expect(planStepState({ ...glucose, outcomes: 1 }, at('2027-01-01T00:00:00Z')).status).toBe('done');
    expect(planStepState({ ...glucose, status: 'not-started' }, at('2027-01-01T00:00:00Z')).status).toBe(
      'due',
    );
  });

  test('a step without dates is upcoming; one with only an end is due', () => {
    expect(planStepState({ outcomes: 0 }, at('2026-11-02T00:00:00Z')).status).toBe('upcoming');
    expect(planStepState({ end: '2026-11-30', outcomes: 0 }, at('2026-11-02T00:00:00Z')).status).toBe('due');
  });
});

describe('nextPlanStep', () => {
  const steps = [
    { title: 'Booking', start: '2026-06-01', end: '2026-06-28', outcomes: 1 },
    { title: 'Tdap', start: '2026-11-20', end: '2027-01-10', outcomes: 0 },
    { title: 'GBS', start: '2027-01-10', end: '2027-01-17', outcomes: 0 },
    { title: 'Glucose', start: '2026-11-02', end: '2026-11-30', outcomes: 0 },
  ];

  test('the first due step, else the earliest upcoming one, never a done one', () => {
    expect(nextPlanStep(steps, at('2026-11-10T12:00:00Z'))?.title).toBe('Glucose');
    expect(nextPlanStep(steps, at('2026-10-10T12:00:00Z'))?.title).toBe('Glucose');
    expect(nextPlanStep(steps.slice(0, 1), at('2026-10-10T12:00:00Z'))).toBeUndefined();
  });
});

describe('questionnaireToAnswer', () => {
  const EPDS = 'https://bloom.example/fhir/Questionnaire/epds';
  const [mood] = planSteps({
    instantiatesCanonical: ['https://bloom.example/fhir/PlanDefinition/pregnancy-care'],
    activity: [
      {
        outcomeReference: null,
        detail: {
          status: 'not-started',
          instantiatesCanonical: [EPDS],
          code: { text: 'Mood check (EPDS)' },
          scheduledPeriod: { start: '2026-11-02', end: '2026-11-30' },
        },
      },
    ],
  });
  const path = `/pregnancy/questionnaire?url=${encodeURIComponent(EPDS)}`;

  test("the step carries its activity's questionnaire", () => {
    expect(mood.questionnaire).toBe(EPDS);
  });

  test('offered from the first day of the window, and still when overdue', () => {
    expect(questionnaireToAnswer(mood, at('2026-11-01T23:59:59Z'))).toBeUndefined();
    expect(questionnaireToAnswer(mood, at('2026-11-02T00:00:00Z'))).toBe(path);
    expect(questionnaireToAnswer(mood, at('2026-12-15T12:00:00Z'))).toBe(path);
  });

  test('not once a response completed it, nor for a step without a questionnaire', () => {
    const answered = { ...mood, outcomes: 1, doneBy: ['QuestionnaireResponse/r1'] };
    expect(questionnaireToAnswer(answered, at('2026-11-10T12:00:00Z'))).toBeUndefined();
    const plain = { ...mood, questionnaire: undefined };
    expect(questionnaireToAnswer(plain, at('2026-11-10T12:00:00Z'))).toBeUndefined();
  });
});
