// The health record and the shared components show no English in Spanish (the scan:
// ../support/untranslated.ts): each screen loaded, empty or in error, the lab report as a table and as
// phone cards, the vitals chart with a due date, the entry form with a validation error, and the
// shared pieces (offline banner, queued writes, error panel, error alert, attachment, side menu).
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import {
  LabResultDetailDocument,
  LabResultListDocument,
  MedicationDetailDocument,
  MedicationListDocument,
  ObservationDetailDocument,
  VaccineDetailDocument,
  VaccineListDocument,
  VitalsLatestDocument,
  VitalsListDocument,
} from '../../../src/graphql';
import type { QueuedWrite } from '../../../src/client/offline-writes';
import { AttachmentViewer } from '../../../src/app/components/AttachmentViewer';
import { ErrorAlert } from '../../../src/app/components/ErrorAlert';
import { ErrorBoundary } from '../../../src/app/components/ErrorPanel';
import { OfflineBannerView } from '../../../src/app/components/OfflineBanner';
import { QueuedWritesList } from '../../../src/app/components/QueuedWritesList';
import HealthRecordLayout from '../../../src/app/features/health-record/HealthRecordLayout';
import { LabResultPage, ReportResultsTable } from '../../../src/app/features/health-record/LabResultPage';
import type { ResultObservation } from '../../../src/app/features/health-record/resultObservation';
import {
  LAB_RESULTS_PAGE_SIZE,
  LabResultsPage,
} from '../../../src/app/features/health-record/LabResultsPage';
import { MedicationPage } from '../../../src/app/features/health-record/MedicationPage';
import {
  MEDICATIONS_PAGE_SIZE,
  MedicationsPage,
} from '../../../src/app/features/health-record/MedicationsPage';
import { ObservationPage } from '../../../src/app/features/health-record/ObservationPage';
import { VaccinePage } from '../../../src/app/features/health-record/VaccinePage';
import { VACCINES_PAGE_SIZE, VaccinesPage } from '../../../src/app/features/health-record/VaccinesPage';
import { LATEST_COUNT, VitalsOverview } from '../../../src/app/features/health-record/VitalsOverview';
import { VITALS_PAGE_SIZE, VitalsPage } from '../../../src/app/features/health-record/VitalsPage';
import { VITAL_TYPES } from '../../../src/app/features/health-record/vitalTypes';
import { renderScreen, type ScreenMock } from '../support/renderScreen';
import { describeUntranslated, type ScreenCase } from '../support/untranslated';

const patient = 'Patient/maria-1';
const now = new Date('2026-06-01T12:00:00Z');
const [bloodPressure, , weight] = VITAL_TYPES;

/** Names and values of the fixtures (and unit symbols), the same in both languages. */
const SAME_IN_BOTH = [
  'Maria',
  'Glucose challenge',
  'Glucose 1h',
  'Hemoglobin',
  'Bloom Lab',
  'Laboratory',
  'Gestational diabetes',
  'Venous blood',
  'Labelled at bedside.',
  'Repeat with a 3-hour test.',
  'Critical high',
  'Normal',
  'report.pdf',
  'Ferrous sulfate 325 mg tablet',
  'One tablet daily',
  'Anemia',
  'Dr. Chen',
  'Tdap',
  'Influenza',
  'Left arm',
  'Bloom Clinic',
  'Server down',
  'mmHg',
  'lb',
  '192 mg/dL',
  '12 g/dL',
  '70 mg/dL – 140 mg/dL',
  '≤ 140 mg/dL',
  '70 g/dL – 140 g/dL',
  'AB12',
  // A screen's title is its record's name.
  'Glucose challenge · Bloom',
  'Glucose 1h · Bloom',
  'Ferrous sulfate 325 mg tablet · Bloom',
  'Tdap · Bloom',
  // The required field's mark.
  '*',
];

function observation(id: string, name: string, value: number, unit: string, code: string, display: string) {
  return {
    __typename: 'Observation',
    resourceType: 'Observation',
    id,
    status: 'final',
    code: { text: name, coding: [] },
    valueQuantity: { value, unit },
    valueString: null,
    valueCodeableConcept: null,
    referenceRange: [{ text: null, low: { value: 70, unit }, high: { value: 140, unit } }],
    interpretation: [{ text: null, coding: [{ code, display }] }],
    category: [{ text: 'Laboratory', coding: [] }],
    performer: [{ reference: 'Organization/lab', display: 'Bloom Lab' }],
    note: [{ text: 'Repeat with a 3-hour test.' }],
  };
}

const results = [
  observation('glu', 'Glucose 1h', 192, 'mg/dL', 'HH', 'Critical high'),
  observation('hb', 'Hemoglobin', 12, 'g/dL', 'N', 'Normal'),
];

const report = {
  __typename: 'DiagnosticReport',
  resourceType: 'DiagnosticReport',
  id: 'glucose',
  status: 'final',
  code: { text: 'Glucose challenge', coding: [] },
  effectiveDateTime: '2026-03-02T09:15:00Z',
  issued: '2026-03-03T10:00:00Z',
  conclusion: 'Gestational diabetes',
  performer: [{ reference: 'Organization/lab', display: 'Bloom Lab' }],
  presentedForm: [
    { contentType: 'application/pdf', url: 'https://files.test/report.pdf', data: null, title: 'report.pdf' },
  ],
  specimen: [
    {
      reference: 'Specimen/s1',
      display: null,
      resource: {
        __typename: 'Specimen',
        resourceType: 'Specimen',
        id: 's1',
        type: { text: 'Venous blood' },
        collection: { collectedDateTime: '2026-03-02T09:15:00Z' },
        receivedTime: '2026-03-02T10:00:00Z',
        note: [{ text: 'Labelled at bedside.' }],
      },
    },
  ],
  result: results.map((resource) => ({ reference: `Observation/${resource.id}`, display: null, resource })),
};

function labList(reports: (typeof report)[], total: number): ScreenMock {
  return {
    request: {
      query: LabResultListDocument,
      variables: { patient, count: LAB_RESULTS_PAGE_SIZE, offset: 0 },
    },
    result: {
      data: {
        DiagnosticReportConnection: {
          count: total,
          offset: 0,
          edges: reports.map((resource) => ({ resource })),
        },
      },
    },
  };
}

const medication = {
  __typename: 'MedicationRequest',
  resourceType: 'MedicationRequest',
  id: 'iron',
  status: 'active',
  intent: 'order',
  medicationCodeableConcept: { text: 'Ferrous sulfate 325 mg tablet', coding: [] },
  authoredOn: '2026-03-05',
  dosageInstruction: [{ text: 'One tablet daily' }],
  requester: { reference: 'Practitioner/chen', display: 'Dr. Chen' },
  reasonCode: [{ text: 'Anemia', coding: [] }],
  note: [{ text: 'Labelled at bedside.' }],
};

function medicationList(edges: (typeof medication)[]): ScreenMock {
  return {
    request: {
      query: MedicationListDocument,
      variables: { patient, count: MEDICATIONS_PAGE_SIZE, offset: 0 },
    },
    result: {
      data: {
        MedicationRequestConnection: {
          count: edges.length,
          offset: 0,
          edges: edges.map((resource) => ({ resource })),
        },
      },
    },
  };
}

function immunization(id: string, name: string, when: string, status: string) {
  return {
    __typename: 'Immunization',
    resourceType: 'Immunization',
    id,
    status,
    vaccineCode: { text: name, coding: [] },
    occurrenceDateTime: when,
  };
}

function vaccineList(edges: ReturnType<typeof immunization>[]): ScreenMock {
  return {
    request: { query: VaccineListDocument, variables: { patient, count: VACCINES_PAGE_SIZE, offset: 0 } },
    result: {
      data: {
        ImmunizationConnection: {
          count: edges.length,
          offset: 0,
          edges: edges.map((resource) => ({ resource })),
        },
      },
    },
  };
}

function bp(id: string, when: string, systolic: number, diastolic: number) {
  return {
    __typename: 'Observation',
    resourceType: 'Observation',
    id,
    status: 'final',
    effectiveDateTime: when,
    valueQuantity: null,
    component: [
      { code: { coding: [{ code: '8480-6' }] }, valueQuantity: { value: systolic, unit: 'mm[Hg]' } },
      { code: { coding: [{ code: '8462-4' }] }, valueQuantity: { value: diastolic, unit: 'mm[Hg]' } },
    ],
  };
}

function vitalsList(code: string, edges: ReturnType<typeof bp>[], dueDate?: string): ScreenMock {
  return {
    request: {
      query: VitalsListDocument,
      variables: { patient, code: `http://loinc.org|${code}`, count: VITALS_PAGE_SIZE, offset: 0 },
    },
    result: {
      data: {
        dueDate: {
          edges: dueDate
            ? [
                {
                  resource: {
                    __typename: 'Observation',
                    resourceType: 'Observation',
                    id: 'edd',
                    valueDateTime: dueDate,
                  },
                },
              ]
            : [],
        },
        ObservationConnection: {
          count: edges.length + 1,
          offset: 0,
          edges: edges.map((resource) => ({ resource })),
        },
      },
    },
  };
}

const latestVitals: ScreenMock = {
  request: { query: VitalsLatestDocument, variables: { patient, count: LATEST_COUNT } },
  result: {
    data: {
      bloodPressure: {
        __typename: 'ObservationConnection',
        count: 2,
        edges: [
          { resource: bp('bp2', '2026-02-10T10:00:00Z', 118, 76) },
          { resource: bp('bp1', '2026-01-10T10:00:00Z', 112, 70) },
        ],
      },
      heartRate: { __typename: 'ObservationConnection', count: 0, edges: [] },
      weight: { __typename: 'ObservationConnection', count: 0, edges: [] },
    },
  },
};

function queued(key: string, label: string, state: QueuedWrite['state']): QueuedWrite {
  const resource = { resourceType: 'Observation', status: 'preliminary', code: { text: label } } as const;
  return { key, owner: patient, label, topic: 'vitals', resource, queuedAt: '2026-06-01T10:00:00Z', state };
}

const writes = [
  queued('a', 'Tdap', 'waiting'),
  queued('b', 'Influenza', 'sending'),
  queued('c', 'Tdap', 'failed'),
];

function Thrower(): never {
  throw new Error('Server down');
}

const detailRoute = (path: string, pattern: string) => ({ path, pattern });

const SCREENS: readonly ScreenCase[] = [
  {
    name: 'lab results: a page of reports with Load more',
    render: () => renderScreen(<LabResultsPage />, [labList([report], 2)]),
    ready: () => screen.findByRole('button', { name: /./, hidden: false }),
  },
  {
    name: 'lab results and medications: none',
    render: () =>
      renderScreen(
        <>
          <LabResultsPage />
          <MedicationsPage />
        </>,
        [labList([], 0), medicationList([])],
      ),
    ready: () => waitFor(() => expect(screen.getAllByText(/./, { selector: 'p' })).toHaveLength(2)),
  },
  {
    name: 'lab results: the server fails',
    render: () =>
      renderScreen(<LabResultsPage />, [
        { ...labList([], 0), result: undefined, error: new Error('Server down') },
      ]),
    ready: () => screen.findByRole('alert'),
  },
  {
    name: 'lab report: table, specimens, notes and the PDF',
    render: () =>
      renderScreen(
        <LabResultPage />,
        [
          {
            request: { query: LabResultDetailDocument, variables: { id: 'glucose' } },
            result: { data: { DiagnosticReport: report } },
          },
        ],
        detailRoute('/health-record/lab-results/glucose', '/health-record/lab-results/:resultId'),
      ),
    ready: () => screen.findByRole('table'),
  },
  {
    name: 'lab report, medication, vaccine and observation: not found',
    render: () =>
      renderScreen(
        <>
          <LabResultPage />
          <MedicationPage />
          <VaccinePage now={now} />
          <ObservationPage />
        </>,
        [
          {
            request: { query: LabResultDetailDocument, variables: { id: 'x' } },
            result: { data: { DiagnosticReport: null } },
          },
          {
            request: { query: MedicationDetailDocument, variables: { id: 'x' } },
            result: { data: { MedicationRequest: null } },
          },
          {
            request: { query: VaccineDetailDocument, variables: { id: 'x' } },
            result: { data: { Immunization: null } },
          },
          {
            request: { query: ObservationDetailDocument, variables: { id: 'x' } },
            result: { data: { Observation: null } },
          },
        ],
        detailRoute('/x/x/x/x', '/:resultId/:medicationId/:vaccineId/:observationId'),
      ),
    ready: () => waitFor(() => expect(screen.getAllByText(/./, { selector: 'p' })).toHaveLength(4)),
  },
  {
    name: 'lab report results as phone cards',
    render: () =>
      renderScreen(<ReportResultsTable results={results as unknown as ResultObservation[]} stacked />, []),
    ready: () => screen.findAllByRole('listitem'),
  },
  {
    name: 'medications: a list',
    render: () => renderScreen(<MedicationsPage />, [medicationList([medication])]),
    ready: () => screen.findByRole('link', { name: 'Ferrous sulfate 325 mg tablet' }),
  },
  {
    name: 'medication detail',
    render: () =>
      renderScreen(
        <MedicationPage />,
        [
          {
            request: { query: MedicationDetailDocument, variables: { id: 'iron' } },
            result: { data: { MedicationRequest: medication } },
          },
        ],
        detailRoute('/health-record/medications/iron', '/health-record/medications/:medicationId'),
      ),
    ready: () => screen.findByRole('heading', { level: 1 }),
  },
  {
    name: 'vaccines: upcoming and past',
    render: () =>
      renderScreen(<VaccinesPage now={now} />, [
        vaccineList([
          immunization('tdap', 'Tdap', '2026-06-20T10:00:00Z', 'not-done'),
          immunization('flu', 'Influenza', '2026-01-10T10:00:00Z', 'completed'),
        ]),
      ]),
    ready: () => screen.findByRole('link', { name: 'Influenza' }),
  },
  {
    name: 'vaccines: none',
    render: () => renderScreen(<VaccinesPage now={now} />, [vaccineList([])]),
    ready: () => screen.findAllByText(/./, { selector: 'p' }),
  },
  {
    name: 'vaccine detail',
    render: () =>
      renderScreen(
        <VaccinePage now={now} />,
        [
          {
            request: { query: VaccineDetailDocument, variables: { id: 'tdap' } },
            result: {
              data: {
                Immunization: {
                  ...immunization('tdap', 'Tdap', '2026-06-20T10:00:00Z', 'not-done'),
                  statusReason: null,
                  lotNumber: 'AB12',
                  doseQuantity: { value: 0.5, unit: 'mL' },
                  site: { text: 'Left arm', coding: [] },
                  route: null,
                  location: { reference: 'Location/clinic', display: 'Bloom Clinic' },
                  performer: [{ actor: { reference: 'Practitioner/chen', display: 'Dr. Chen' } }],
                  note: [],
                },
              },
            },
          },
        ],
        detailRoute('/health-record/vaccines/tdap', '/health-record/vaccines/:vaccineId'),
      ),
    ready: () => screen.findByRole('heading', { level: 1 }),
  },
  {
    name: 'observation detail with a critical value and members',
    render: () =>
      renderScreen(
        <ObservationPage />,
        [
          {
            request: { query: ObservationDetailDocument, variables: { id: 'glu' } },
            result: {
              data: {
                Observation: {
                  ...results[0],
                  effectiveDateTime: '2026-03-02T09:15:00Z',
                  issued: null,
                  component: null,
                  referenceRange: [{ text: null, low: null, high: { value: 140, unit: 'mg/dL' } }],
                  hasMember: [{ reference: 'Observation/hb', display: 'Hemoglobin' }],
                },
              },
            },
          },
        ],
        detailRoute('/Observation/glu', '/Observation/:observationId'),
      ),
    ready: () => screen.findByRole('link', { name: 'Hemoglobin' }),
  },
  {
    name: 'vitals overview',
    render: () => renderScreen(<VitalsOverview />, [latestVitals]),
    ready: () => screen.findAllByTestId('sparkline'),
  },
  {
    name: 'blood pressure: chart with pregnancy weeks, table, more to load, entry form with a wrong number',
    render: () =>
      renderScreen(<VitalsPage vital={bloodPressure} />, [
        vitalsList(
          bloodPressure.code,
          [bp('bp1', '2026-03-10T10:00:00Z', 112, 70), bp('bp2', '2026-04-20T10:00:00Z', 118, 76.5)],
          '2026-07-13',
        ),
      ]),
    ready: async () => {
      const form = await screen.findByRole('form');
      const [systolic] = screen.getAllByRole('textbox');
      fireEvent.change(systolic, { target: { value: 'abc' } });
      fireEvent.submit(form);
      return screen.findAllByText(/120/);
    },
  },
  {
    name: 'weight: no measurements yet',
    render: () => renderScreen(<VitalsPage vital={weight} />, [vitalsList(weight.code, [])]),
    ready: () => screen.findByRole('form'),
  },
  {
    name: 'health record side menu',
    render: () => renderScreen(<HealthRecordLayout />, []),
    ready: async () => {
      fireEvent.click(await screen.findByRole('button'));
      return screen.findAllByRole('link');
    },
  },
  {
    name: 'offline banner, with and without a last update; queued writes',
    render: () =>
      render(
        <>
          <OfflineBannerView
            status={{ browserOffline: false, answeredFromDevice: true, lastUpdated: '2026-06-01T09:00:00Z' }}
          />
          <OfflineBannerView status={{ browserOffline: true, answeredFromDevice: false }} />
          <QueuedWritesList writes={writes} onDismiss={() => undefined} label="Tdap" />
        </>,
      ),
    ready: () => screen.findAllByRole('status'),
  },
  {
    name: 'error panel, error alert and an attachment',
    render: () =>
      render(
        <>
          <ErrorBoundary resetKey="a">
            <Thrower />
          </ErrorBoundary>
          <ErrorAlert message="Server down" />
          <AttachmentViewer attachment={{ contentType: 'image/png', url: 'https://files.test/x.png' }} />
        </>,
      ),
    ready: () => screen.findAllByRole('alert'),
  },
];

describeUntranslated(
  'the health record and shared components show no English in Spanish',
  SCREENS,
  SAME_IN_BOTH,
);
