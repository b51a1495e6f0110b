// Home signed in (SPEC §2 "/"): greeting by name, 'Send Message' → /messages, the four
// pregnancy-information cards, and where the pregnancy stands / what is next from HomeSummary.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Observation } from '@medplum/fhirtypes';
import { HomeSummaryDocument } from '../../../../src/graphql';
import { HomePage } from '../../../../src/app/features/home/HomePage';
import { lastPeriodProblem } from '../../../../src/app/features/home/lastPeriod';
import { dueDateFromLastPeriod, pregnancyProgress } from '../../../../src/app/components/pregnancyProgress';
import { activateLocale } from '../../../../src/app/i18n/i18n';
import { spanish } from '../../../../src/server/seed/demo/translation';
import { maria } from '../../support/fakeApi';
import { renderScreen, type ScreenMock } from '../../support/renderScreen';

const now = new Date('2026-06-01T12:00:00Z');
const variables = {
  patient: 'Patient/maria-1',
  from: `ge${now.toISOString()}`,
  after: `gt${now.toISOString()}`,
  carePlans: 'patient=Patient%2Fmaria-1&status=active&_sort=-_lastUpdated&_count=10',
};

/** Home's answer; `CarePlanList` are the plans ResourceSearch returns as JSON. */
function summary({ CarePlanList = [], ...data }: Record<string, unknown>): ScreenMock {
  return {
    request: { query: HomeSummaryDocument, variables },
    result: {
      data: {
        dueDate: { __typename: 'ObservationConnection', edges: [] },
        lastPeriod: { __typename: 'ObservationConnection', edges: [] },
        nextAppointment: { edges: [] },
        nextVaccine: { edges: [] },
        carePlans: { __typename: 'ResourceSearchResult', resources: CarePlanList },
        ...data,
      },
    },
  };
}

describe('SPEC §2 home', () => {
  it('greets by name, Send Message goes to /messages, four pregnancy cards link out', async () => {
    renderScreen(<HomePage profile={maria} now={now} />, [summary({})]);
    expect(screen.getByRole('heading', { level: 1, name: 'Hello Maria' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Send Message' })).toHaveAttribute('href', '/messages');
    for (const title of ['First trimester', 'Second trimester', 'Third trimester', 'Labor and delivery']) {
      const card = screen.getByRole('link', { name: new RegExp(title) });
      expect(card.getAttribute('href')).toMatch(/^https:\/\//);
      expect(card).toHaveAttribute('target', '_blank');
    }
  });

  it('shows weeks and due date, the next appointment and the next vaccine when the record holds them', async () => {
    renderScreen(<HomePage profile={maria} now={now} />, [
      summary({
        dueDate: {
          __typename: 'ObservationConnection',
          edges: [
            {
              resource: {
                __typename: 'Observation',
                resourceType: 'Observation',
                id: 'edd',
                valueDateTime: '2026-07-13',
              },
            },
          ],
        },
        nextAppointment: {
          edges: [
            {
              resource: {
                __typename: 'Appointment',
                resourceType: 'Appointment',
                id: 'ap',
                status: 'booked',
                start: '2026-06-05T15:00:00Z',
                description: '36-week visit',
              },
            },
          ],
        },
        nextVaccine: {
          edges: [
            {
              resource: {
                __typename: 'Immunization',
                resourceType: 'Immunization',
                id: 'tdap',
                status: 'not-done',
                vaccineCode: { text: 'Tdap' },
                occurrenceDateTime: '2026-06-05T15:00:00Z',
              },
            },
          ],
        },
      }),
    ]);
    expect(await screen.findByText('34 weeks 0 days · trimester 3')).toBeInTheDocument();
    expect(screen.getByText('36-week visit')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Tdap' })).toHaveAttribute(
      'href',
      '/health-record/vaccines/tdap',
    );
  });

  it("shows the next step of the clinic's care plan beside the next appointment, linking to the timeline", async () => {
    const step = (text: string, start: string, end: string, status = 'not-started') => ({
      outcomeReference: null,
      detail: { status, code: { text }, scheduledPeriod: { start, end } },
    });
    renderScreen(<HomePage profile={maria} now={now} />, [
      summary({
        CarePlanList: [
          {
            __typename: 'CarePlan',
            resourceType: 'CarePlan',
            id: 'handwritten',
            instantiatesCanonical: null,
            activity: [step('Not from the template', '2026-05-01', '2026-07-01')],
          },
          {
            __typename: 'CarePlan',
            resourceType: 'CarePlan',
            id: 'plan',
            instantiatesCanonical: ['https://bloom.example/fhir/PlanDefinition/pregnancy-care'],
            activity: [
              step('Anatomy scan', '2026-02-01', '2026-03-01', 'completed'),
              step('GBS swab', '2026-06-20', '2026-06-27'),
              step('Tdap vaccine', '2026-05-15', '2026-07-01'),
            ],
          },
        ],
      }),
    ]);
    const card = await screen.findByRole('region', { name: 'Next step' });
    expect(card).toHaveTextContent('Tdap vaccine');
    expect(card).not.toHaveTextContent('Not from the template');
    expect(within(card).getByRole('link', { name: 'See your care plan' })).toHaveAttribute(
      'href',
      '/pregnancy',
    );
    expect(within(card).queryByRole('link', { name: 'Answer the questionnaire' })).not.toBeInTheDocument();
  });

  it("names the next step in her language where the plan carries a translation (FHIR's translation extension)", async () => {
    const plan = {
      resourceType: 'CarePlan',
      id: 'plan',
      instantiatesCanonical: ['https://bloom.example/fhir/PlanDefinition/pregnancy-care'],
      activity: [
        {
          detail: {
            status: 'not-started',
            code: { text: 'GBS swab', _text: spanish('Hisopado de estreptococo del grupo B') },
            scheduledPeriod: { start: '2026-05-20', end: '2026-06-27' },
          },
        },
      ],
    };
    try {
      await act(() => activateLocale('es'));
      renderScreen(<HomePage profile={maria} now={now} />, [summary({ CarePlanList: [plan] })]);
      const card = await screen.findByRole('region', { name: 'Próximo paso' });
      expect(card).toHaveTextContent('Hisopado de estreptococo del grupo B');
      expect(card).not.toHaveTextContent('GBS swab');
    } finally {
      await act(() => activateLocale('en'));
    }
  });

  it('a next step that offers a questionnaire links to answer it', async () => {
    const EPDS = 'https://bloom.example/fhir/Questionnaire/epds';
    renderScreen(<HomePage profile={maria} now={now} />, [
      summary({
        CarePlanList: [
          {
            __typename: 'CarePlan',
            resourceType: 'CarePlan',
            id: 'plan',
            instantiatesCanonical: ['https://bloom.example/fhir/PlanDefinition/pregnancy-care'],
            activity: [
              {
                outcomeReference: null,
                detail: {
                  status: 'not-started',
                  instantiatesCanonical: [EPDS],
                  code: { text: 'Mood check (EPDS)' },
                  scheduledPeriod: { start: '2026-05-20', end: '2026-06-17' },
                },
              },
            ],
          },
        ],
      }),
    ]);
    const card = await screen.findByRole('region', { name: 'Next step' });
    expect(card).toHaveTextContent('Mood check (EPDS)');
    expect(within(card).getByRole('link', { name: 'Answer the questionnaire' })).toHaveAttribute(
      'href',
      `/pregnancy/questionnaire?url=${encodeURIComponent(EPDS)}`,
    );
  });

  it('nothing in the record: no summary cards', async () => {
    renderScreen(<HomePage profile={maria} now={now} />, [summary({})]);
    await screen.findByRole('link', { name: 'Send Message' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Next appointment' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Next step' })).not.toBeInTheDocument();
  });

  it('no due date: the pregnancy card says so, points to the care team and offers the last period', async () => {
    renderScreen(<HomePage profile={maria} now={now} />, [summary({})]);
    const card = await screen.findByRole('region', { name: 'Your pregnancy' });
    expect(card).toHaveTextContent("We don't know your due date yet.");
    expect(within(card).getByRole('link', { name: 'ask them' })).toHaveAttribute('href', '/messages');
    expect(within(card).getByLabelText('First day of last period')).toHaveAttribute('type', 'date');
  });

  it('entering the last period stores an Observation (LOINC 8665-2), from which the card dates the pregnancy', async () => {
    const lastPeriod = {
      lastPeriod: {
        __typename: 'ObservationConnection',
        edges: [
          {
            resource: {
              __typename: 'Observation',
              resourceType: 'Observation',
              id: 'lmp',
              valueDateTime: '2026-01-05',
            },
          },
        ],
      },
    };
    const { api } = renderScreen(<HomePage profile={maria} now={now} />, [summary({}), summary(lastPeriod)]);
    api.once('POST fhir/R4/Observation', 201, { resourceType: 'Observation', id: 'lmp' });
    const card = await screen.findByRole('region', { name: 'Your pregnancy' });
    const input = within(card).getByLabelText('First day of last period');
    // Refused in the form first: a future date.
    fireEvent.change(input, { target: { value: '2026-07-01' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Work out my due date' }));
    expect(await within(card).findByText('The date cannot be in the future.')).toBeInTheDocument();
    expect(api.bodiesOf('POST fhir/R4/Observation')).toEqual([]);
    fireEvent.change(input, { target: { value: '2026-01-05' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Work out my due date' }));
    // 2026-01-05 + 280 days = 2026-10-12; on 2026-06-01 that is 21 weeks 0 days.
    expect(await screen.findByText('21 weeks 0 days · trimester 2')).toBeInTheDocument();
    const [stored] = api.bodiesOf('POST fhir/R4/Observation') as Observation[];
    expect(stored).toMatchObject({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '8665-2' }] },
      subject: { reference: 'Patient/maria-1' },
      valueDateTime: '2026-01-05',
    });
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Your pregnancy' })).toHaveTextContent(
        'from the first day of your last period',
      ),
    );
  });

  it('a failed summary shows its error but keeps the greeting and cards', async () => {
    renderScreen(<HomePage profile={maria} now={now} />, [
      { request: { query: HomeSummaryDocument, variables }, error: new Error('Boom') },
    ]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Boom');
    expect(screen.getByRole('link', { name: /First trimester/ })).toBeInTheDocument();
  });
});

describe('the due date from the last period', () => {
  it('is 280 days later', () => {
    expect(dueDateFromLastPeriod('2025-10-06')).toBe('2026-07-13');
    expect(dueDateFromLastPeriod('garbage')).toBeUndefined();
  });
  it('refuses a future date, one beyond 42 weeks and a malformed one', () => {
    expect(lastPeriodProblem('2026-05-01', now)).toBeUndefined();
    expect(lastPeriodProblem('2026-06-02', now)?.message).toBe('The date cannot be in the future.');
    expect(lastPeriodProblem('2025-06-01', now)?.message).toMatch(/more than 42 weeks/);
    expect(lastPeriodProblem('', now)?.message).toMatch(/Enter the date/);
  });
});

describe('pregnancy progress from the due date', () => {
  it('280 days before the due date is 0 weeks; the due date is 40 weeks', () => {
    expect(pregnancyProgress('2026-07-13', new Date('2025-10-06T08:00:00Z'))).toEqual({
      weeks: 0,
      days: 0,
      trimester: 1,
    });
    expect(pregnancyProgress('2026-07-13', new Date('2026-07-13T08:00:00Z'))).toEqual({
      weeks: 40,
      days: 0,
      trimester: 3,
    });
    expect(pregnancyProgress('2026-07-13', new Date('2026-02-01T00:00:00Z'))?.trimester).toBe(2);
  });
  it('a past due date, one beyond 40 weeks or garbage gives nothing', () => {
    expect(pregnancyProgress('2026-07-13', new Date('2026-07-14T08:00:00Z'))).toBeUndefined();
    expect(pregnancyProgress('2026-07-13', new Date('2025-10-01T08:00:00Z'))).toBeUndefined();
    expect(pregnancyProgress('soon', now)).toBeUndefined();
  });
});
