// Medications, vaccines (SPEC §4 upcoming vs past, 'No upcoming vaccines available') and
// Observation/{id} (SPEC §2) in their loading, empty, data and error states, with Apollo's
// MockedProvider answering each screen's one operation.
import { screen, within } from '@testing-library/react';
import {
  MedicationDetailDocument,
  MedicationListDocument,
  ObservationDetailDocument,
  VaccineDetailDocument,
  VaccineListDocument,
} from '../../../../src/graphql';
import { MedicationPage } from '../../../../src/app/features/health-record/MedicationPage';
import {
  MEDICATIONS_PAGE_SIZE,
  MedicationsPage,
} from '../../../../src/app/features/health-record/MedicationsPage';
import { ObservationPage } from '../../../../src/app/features/health-record/ObservationPage';
import { VaccinePage } from '../../../../src/app/features/health-record/VaccinePage';
import { VACCINES_PAGE_SIZE, VaccinesPage } from '../../../../src/app/features/health-record/VaccinesPage';
import { splitVaccines } from '../../../../src/app/features/health-record/vaccineSplit';
import { renderScreen } from '../../support/renderScreen';

const patient = 'Patient/maria-1';
const now = new Date('2026-06-01T12:00:00Z');

function immunization(id: string, name: string, when: string | null, status: string) {
  return {
    resource: {
      __typename: 'Immunization',
      resourceType: 'Immunization',
      id,
      status,
      vaccineCode: { text: name, coding: [] },
      occurrenceDateTime: when,
    },
  };
}

function vaccineList(edges: ReturnType<typeof immunization>[]) {
  return {
    request: { query: VaccineListDocument, variables: { patient, count: VACCINES_PAGE_SIZE, offset: 0 } },
    result: { data: { ImmunizationConnection: { count: edges.length, offset: 0, edges } } },
  };
}

describe('SPEC §4 vaccines: upcoming (later than now) and past (no date or not later)', () => {
  it('splits on now, undated vaccines are past', () => {
    const list = [
      { id: 'a', occurrenceDateTime: '2026-06-01T12:00:01Z' },
      { id: 'b', occurrenceDateTime: '2026-06-01T12:00:00Z' },
      { id: 'c', occurrenceDateTime: null },
      { id: 'd', occurrenceDateTime: 'garbage' },
    ];
    const { upcoming, past } = splitVaccines(list, now);
    expect(upcoming.map((v) => v.id)).toEqual(['a']);
    expect(past.map((v) => v.id)).toEqual(['b', 'c', 'd']);
  });

  it('the screen lists Tdap as upcoming and the flu shot as past', async () => {
    renderScreen(<VaccinesPage now={now} />, [
      vaccineList([
        immunization('flu', 'Influenza', '2026-01-10T10:00:00Z', 'completed'),
        immunization('tdap', 'Tdap', '2026-06-20T10:00:00Z', 'not-done'),
      ]),
    ]);
    const upcoming = await screen.findByRole('list', { name: 'Upcoming vaccines' });
    expect(within(upcoming).getByRole('link', { name: 'Tdap' })).toHaveAttribute(
      'href',
      '/health-record/vaccines/tdap',
    );
    expect(
      within(screen.getByRole('list', { name: 'Past vaccines' })).getByRole('link', { name: 'Influenza' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Vaccines · Bloom');
  });

  it("none upcoming: 'No upcoming vaccines available'", async () => {
    renderScreen(<VaccinesPage now={now} />, [
      vaccineList([immunization('flu', 'Influenza', null, 'completed')]),
    ]);
    expect(await screen.findByText('No upcoming vaccines available')).toBeInTheDocument();
  });

  it('error and loading states', async () => {
    renderScreen(<VaccinesPage now={now} />, [
      { request: vaccineList([]).request, error: new Error('Server down'), delay: 100 },
    ]);
    expect(await screen.findByRole('progressbar', { name: 'Loading vaccines' })).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Server down');
  });

  it('detail shows the reason it is not yet given', async () => {
    renderScreen(
      <VaccinePage />,
      [
        {
          request: { query: VaccineDetailDocument, variables: { id: 'tdap' } },
          result: {
            data: {
              Immunization: {
                resourceType: 'Immunization',
                id: 'tdap',
                status: 'not-done',
                statusReason: { text: 'Scheduled for an upcoming visit' },
                vaccineCode: { text: 'Tdap', coding: [] },
                occurrenceDateTime: '2026-06-20T10:00:00Z',
                lotNumber: null,
                site: null,
                route: null,
                doseQuantity: null,
                location: null,
                performer: null,
                note: null,
              },
            },
          },
        },
      ],
      { path: '/health-record/vaccines/tdap', pattern: '/health-record/vaccines/:vaccineId' },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Tdap' })).toBeInTheDocument();
    expect(screen.getByText('Scheduled for an upcoming visit')).toBeInTheDocument();
    // Its date has passed: not given, in the red of things that did not happen (statusWords.ts).
    expect(screen.getByText('Not given')).toHaveAttribute('data-color', 'red');
  });
});

describe('SPEC §2 medications', () => {
  const request = {
    query: MedicationListDocument,
    variables: { patient, count: MEDICATIONS_PAGE_SIZE, offset: 0 },
  };

  it('lists each request with its dosage and status', async () => {
    renderScreen(<MedicationsPage />, [
      {
        request,
        result: {
          data: {
            MedicationRequestConnection: {
              count: 1,
              offset: 0,
              edges: [
                {
                  resource: {
                    __typename: 'MedicationRequest',
                    resourceType: 'MedicationRequest',
                    id: 'iron',
                    status: 'active',
                    medicationCodeableConcept: { text: 'Ferrous sulfate 325 mg tablet', coding: [] },
                    authoredOn: '2026-03-05',
                    dosageInstruction: [{ text: 'One tablet daily' }],
                  },
                },
              ],
            },
          },
        },
      },
    ]);
    expect(await screen.findByRole('link', { name: 'Ferrous sulfate 325 mg tablet' })).toHaveAttribute(
      'href',
      '/health-record/medications/iron',
    );
    expect(screen.getByText('One tablet daily')).toBeInTheDocument();
    expect(screen.getByText('Active prescription')).toHaveAttribute('data-color', 'blue');
  });

  it('empty and error states', async () => {
    const { unmount } = renderScreen(<MedicationsPage />, [
      { request, result: { data: { MedicationRequestConnection: { count: 0, offset: 0, edges: [] } } } },
    ]);
    expect(await screen.findByText('No medications available')).toBeInTheDocument();
    unmount();
    renderScreen(<MedicationsPage />, [{ request, error: new Error('Forbidden') }]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden');
  });

  it('detail: not found', async () => {
    renderScreen(
      <MedicationPage />,
      [
        {
          request: { query: MedicationDetailDocument, variables: { id: 'x' } },
          result: { data: { MedicationRequest: null } },
        },
      ],
      { path: '/m/x', pattern: '/m/:medicationId' },
    );
    expect(await screen.findByText('Medication not found')).toBeInTheDocument();
  });
});

describe('SPEC §2 Observation/{id}', () => {
  it('shows value, range, a highlighted critical interpretation, category, performer, notes and members', async () => {
    renderScreen(
      <ObservationPage />,
      [
        {
          request: { query: ObservationDetailDocument, variables: { id: 'glu' } },
          result: {
            data: {
              Observation: {
                // The server answers __typename (Apollo asks for it): the shared fragment matches on it.
                __typename: 'Observation',
                resourceType: 'Observation',
                id: 'glu',
                status: 'final',
                code: { text: 'Glucose 1h', coding: [] },
                effectiveDateTime: '2026-03-02T09:15:00Z',
                issued: null,
                valueQuantity: { value: 192, unit: 'mg/dL' },
                valueString: null,
                valueCodeableConcept: null,
                component: null,
                referenceRange: [{ text: null, low: null, high: { value: 140, unit: 'mg/dL' } }],
                interpretation: [{ text: null, coding: [{ code: 'HH', display: 'Critical high' }] }],
                category: [{ text: 'Laboratory', coding: [] }],
                performer: [{ reference: 'Organization/lab', display: 'Bloom Lab' }],
                note: [{ text: 'Repeat with a 3-hour test.' }],
                hasMember: [{ reference: 'Observation/part', display: 'Part one' }],
              },
            },
          },
        },
      ],
      { path: '/Observation/glu', pattern: '/Observation/:observationId' },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Glucose 1h' })).toBeInTheDocument();
    expect(screen.getByText('192 mg/dL')).toBeInTheDocument();
    expect(screen.getByText('≤ 140 mg/dL')).toBeInTheDocument();
    expect(screen.getByText('Critical high (critical)')).toHaveAttribute('data-critical', 'true');
    expect(screen.getByText('Bloom Lab')).toBeInTheDocument();
    expect(screen.getByText('Repeat with a 3-hour test.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Part one' })).toHaveAttribute('href', '/Observation/part');
  });

  it('error state', async () => {
    renderScreen(
      <ObservationPage />,
      [
        {
          request: { query: ObservationDetailDocument, variables: { id: 'x' } },
          error: new Error('Not found'),
        },
      ],
      { path: '/Observation/x', pattern: '/Observation/:observationId' },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Not found');
  });
});
