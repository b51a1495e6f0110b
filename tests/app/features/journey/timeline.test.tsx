// The pregnancy timeline (/pregnancy): week and trimester from the due date or the last period, the
// stage in plain words, and each step of the clinic's plan done (with what did it), due now or upcoming.
import { screen, within } from '@testing-library/react';
import { PregnancyTimelineDocument } from '../../../../src/graphql';
import { PregnancyTimelinePage } from '../../../../src/app/features/journey/PregnancyTimelinePage';
import { outcomeLink } from '../../../../src/app/features/journey/outcomeLink';
import { stageOfPregnancy } from '../../../../src/app/features/journey/stageOfPregnancy';
import { renderScreen, type ScreenMock } from '../../support/renderScreen';

const now = new Date('2026-06-01T12:00:00Z');

function observation(id: string, valueDateTime: string) {
  return {
    __typename: 'ObservationConnection',
    edges: [{ resource: { __typename: 'Observation', resourceType: 'Observation', id, valueDateTime } }],
  };
}

function step(text: string, start: string, end: string, status = 'not-started', done: string[] = []) {
  return {
    outcomeReference: done.length ? done.map((reference) => ({ reference, display: null })) : null,
    detail: {
      status,
      description: `${text} in plain words`,
      code: { text },
      scheduledPeriod: { start, end },
    },
  };
}

const plan = {
  __typename: 'CarePlan',
  resourceType: 'CarePlan',
  id: 'plan',
  title: 'Pregnancy care plan',
  instantiatesCanonical: ['https://bloom.example/fhir/PlanDefinition/pregnancy-care'],
  activity: [
    step('Anatomy scan', '2026-02-01', '2026-03-01', 'completed', ['DiagnosticReport/scan']),
    step('Tdap vaccine', '2026-04-15', '2026-06-15', 'completed', ['Immunization/tdap']),
    step('Glucose test', '2026-03-20', '2026-05-01'),
    step('GBS swab', '2026-06-20', '2026-06-27'),
  ],
};

/** The timeline's answer; `CarePlanList` are the plans ResourceSearch returns as JSON. */
function timeline({ CarePlanList = [], ...data }: Record<string, unknown>): ScreenMock {
  return {
    request: {
      query: PregnancyTimelineDocument,
      variables: {
        patient: 'Patient/maria-1',
        carePlans: 'patient=Patient%2Fmaria-1&status=active&_sort=-_lastUpdated&_count=10',
      },
    },
    result: {
      data: {
        dueDate: { __typename: 'ObservationConnection', edges: [] },
        lastPeriod: { __typename: 'ObservationConnection', edges: [] },
        carePlans: { __typename: 'ResourceSearchResult', resources: CarePlanList },
        ...data,
      },
    },
  };
}

describe('pregnancy timeline', () => {
  it('shows the week, the trimester, the stage and every step of the plan with its status', async () => {
    renderScreen(<PregnancyTimelinePage now={now} />, [
      timeline({ dueDate: observation('edd', '2026-07-13'), CarePlanList: [plan] }),
    ]);
    expect(await screen.findByText('Week 34 · third trimester')).toBeInTheDocument();
    expect(screen.getByText(stageOfPregnancy(34).message)).toBeInTheDocument();
    const steps = within(screen.getByRole('list', { name: 'Your care plan' })).getAllByRole('listitem');
    expect(steps.map((item) => item.getAttribute('data-state'))).toEqual(['done', 'done', 'due', 'upcoming']);
    expect(within(steps[0]).getByRole('link', { name: 'See the result' })).toHaveAttribute(
      'href',
      '/health-record/lab-results/scan',
    );
    expect(within(steps[1]).getByRole('link', { name: 'See the vaccine' })).toHaveAttribute(
      'href',
      '/health-record/vaccines/tdap',
    );
    expect(steps[0]).toHaveTextContent('Done');
    expect(steps[2]).toHaveTextContent('Due now');
    expect(steps[2]).toHaveTextContent('Its usual time has passed');
    expect(steps[3]).toHaveTextContent('Upcoming');
    expect(steps[3]).not.toHaveTextContent('Its usual time has passed');
  });

  it('dates the pregnancy from the last period she entered when the record has no due date', async () => {
    renderScreen(<PregnancyTimelinePage now={now} />, [
      timeline({ lastPeriod: observation('lmp', '2025-10-06'), CarePlanList: [plan] }),
    ]);
    expect(await screen.findByText('Week 34 · third trimester')).toBeInTheDocument();
    expect(screen.getByText(/from the first day of your last period/)).toBeInTheDocument();
  });

  it('without a due date or a plan it says what to do instead of showing nothing', async () => {
    renderScreen(<PregnancyTimelinePage now={now} />, [timeline({})]);
    expect(await screen.findByText(/We don't know your due date yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'home page' })).toHaveAttribute('href', '/');
    expect(screen.getByText('Your care team has not set up your care plan yet.')).toBeInTheDocument();
  });

  it('a due step offering a questionnaire links to answer it; an answered one links to the answers', async () => {
    const EPDS = 'https://bloom.example/fhir/Questionnaire/epds';
    const mood = (start: string, end: string, done: string[] = []) => {
      const base = step('Mood check (EPDS)', start, end, done.length ? 'completed' : 'not-started', done);
      return { ...base, detail: { ...base.detail, instantiatesCanonical: [EPDS] } };
    };
    renderScreen(<PregnancyTimelinePage now={now} />, [
      timeline({
        dueDate: observation('edd', '2026-07-13'),
        CarePlanList: [
          {
            ...plan,
            activity: [
              mood('2026-01-01', '2026-01-29', ['QuestionnaireResponse/r1']),
              mood('2026-05-20', '2026-06-17'),
              mood('2026-08-10', '2026-09-07'),
            ],
          },
        ],
      }),
    ]);
    await screen.findByText('Week 34 · third trimester');
    const steps = within(screen.getByRole('list', { name: 'Your care plan' })).getAllByRole('listitem');
    expect(steps.map((item) => item.getAttribute('data-state'))).toEqual(['done', 'due', 'upcoming']);
    expect(within(steps[0]).getByRole('link', { name: 'See your answers' })).toHaveAttribute(
      'href',
      '/forms/responses/r1',
    );
    expect(within(steps[1]).getByRole('link', { name: 'Answer the questionnaire' })).toHaveAttribute(
      'href',
      `/pregnancy/questionnaire?url=${encodeURIComponent(EPDS)}`,
    );
    for (const other of [steps[0], steps[2]]) {
      expect(within(other).queryByRole('link', { name: 'Answer the questionnaire' })).not.toBeInTheDocument();
    }
  });

  it('a plan written by hand (no PlanDefinition behind it) is not taken for the schedule', async () => {
    renderScreen(<PregnancyTimelinePage now={now} />, [
      timeline({
        dueDate: observation('edd', '2026-07-13'),
        CarePlanList: [{ ...plan, id: 'handwritten', instantiatesCanonical: null }],
      }),
    ]);
    expect(await screen.findByText('Your care team has not set up your care plan yet.')).toBeInTheDocument();
  });
});

describe('what completed a step opens on the patient screens', () => {
  it('maps vaccines, reports and observations to their screens; an appointment reads as attended', () => {
    expect(outcomeLink('Immunization/1')).toEqual({
      to: '/health-record/vaccines/1',
      label: expect.objectContaining({ message: 'See the vaccine' }),
    });
    expect(outcomeLink('DiagnosticReport/2').to).toBe('/health-record/lab-results/2');
    expect(outcomeLink('Observation/3').to).toBe('/Observation/3');
    expect(outcomeLink('Appointment/4').label.message).toBe('Visit attended');
    expect(outcomeLink('Procedure/5').label.message).toBe('Recorded by your care team');
  });

  it('the stage text follows the week', () => {
    expect(stageOfPregnancy(5).message).toMatch(/heart, brain and spine/);
    expect(stageOfPregnancy(21).message).toMatch(/feel your baby move/);
    expect(stageOfPregnancy(38).message).toMatch(/any day now/);
  });
});
