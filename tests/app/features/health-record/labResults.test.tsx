// Lab results (SPEC §2 health-record/lab-results and the diagnostic report view; §9 critical
// codes AA, LL, HH, A): list and detail in their loading, empty, data and error states, against
// Apollo's MockedProvider answering LabResultList / LabResultDetail.
import { fireEvent, screen, within } from '@testing-library/react';
import {
  LabResultDetailDocument,
  LabResultListDocument,
  type LabResultDetailQuery,
} from '../../../../src/graphql';
import { LabResultPage, ReportResultsTable } from '../../../../src/app/features/health-record/LabResultPage';
import {
  LAB_RESULTS_PAGE_SIZE,
  LabResultsPage,
} from '../../../../src/app/features/health-record/LabResultsPage';
import type { ResultObservation } from '../../../../src/app/features/health-record/resultObservation';
import { renderScreen, type ScreenMock } from '../../support/renderScreen';

const patient = 'Patient/maria-1';

function report(id: string, name: string) {
  return {
    resource: {
      __typename: 'DiagnosticReport',
      resourceType: 'DiagnosticReport',
      id,
      status: 'final',
      code: { __typename: 'CodeableConcept', text: name, coding: [] },
      effectiveDateTime: '2026-03-02T09:15:00Z',
      issued: '2026-03-03T10:00:00Z',
    },
  };
}

function listMock(offset: number, ids: string[], total: number): ScreenMock {
  return {
    request: { query: LabResultListDocument, variables: { patient, count: LAB_RESULTS_PAGE_SIZE, offset } },
    result: {
      data: {
        DiagnosticReportConnection: {
          count: total,
          offset,
          edges: ids.map((id) => report(id, `Report ${id}`)),
        },
      },
    },
  };
}

describe('SPEC §2 health-record/lab-results list', () => {
  it('shows a spinner, then each report linking to its detail with its status badge', async () => {
    renderScreen(<LabResultsPage />, [listMock(0, ['r1', 'r2'], 2)]);
    expect(await screen.findByRole('link', { name: 'Report r1' })).toHaveAttribute(
      'href',
      '/health-record/lab-results/r1',
    );
    expect(screen.getByRole('link', { name: 'Report r2' })).toBeInTheDocument();
    expect(screen.getAllByText('Final result')[0]).toHaveAttribute('data-color', 'green');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(document.title).toBe('Lab Results · Bloom');
  });

  it('is not cut at a page: Load more appends the next page until the total is shown', async () => {
    const first = Array.from({ length: LAB_RESULTS_PAGE_SIZE }, (_, i) => `a${i}`);
    renderScreen(<LabResultsPage />, [
      listMock(0, first, LAB_RESULTS_PAGE_SIZE + 1),
      listMock(50, ['last'], 51),
    ]);
    await screen.findByRole('link', { name: 'Report a0' });
    expect(
      screen.getByText(`Showing ${LAB_RESULTS_PAGE_SIZE} of ${LAB_RESULTS_PAGE_SIZE + 1}`),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'Report last' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(LAB_RESULTS_PAGE_SIZE + 1);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    // 51 MUI rows under jsdom take a few seconds on a busy 2-core machine.
  }, 20_000);

  it('empty: says there are no lab results', async () => {
    renderScreen(<LabResultsPage />, [listMock(0, [], 0)]);
    expect(await screen.findByText('No lab results available')).toBeInTheDocument();
  });

  it('error: shows the server message with Try again', async () => {
    renderScreen(<LabResultsPage />, [
      {
        request: {
          query: LabResultListDocument,
          variables: { patient, count: LAB_RESULTS_PAGE_SIZE, offset: 0 },
        },
        error: new Error('Forbidden'),
      },
    ]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('loading: a labelled spinner before the answer', async () => {
    renderScreen(<LabResultsPage />, [{ ...listMock(0, ['r1'], 1), delay: 200 }]);
    expect(await screen.findByRole('progressbar', { name: 'Loading lab results' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Report r1' })).toBeInTheDocument();
  });
});

// With the __typename the server adds to every object (Apollo asks for it).
type DetailReport = NonNullable<LabResultDetailQuery['DiagnosticReport']> & { __typename?: string };

function observation(
  id: string,
  name: string,
  value: number,
  unit: string,
  interpretation: string,
  extra: Record<string, unknown> = {},
) {
  return {
    reference: `Observation/${id}`,
    display: null,
    resource: {
      __typename: 'Observation',
      resourceType: 'Observation',
      id,
      status: 'final',
      code: { text: name, coding: [] },
      valueQuantity: { value, unit },
      valueString: null,
      valueCodeableConcept: null,
      referenceRange: [{ text: null, low: { value: 70, unit }, high: { value: 140, unit } }],
      interpretation: [{ text: null, coding: [{ code: interpretation, display: `Code ${interpretation}` }] }],
      category: [{ text: 'Laboratory', coding: [] }],
      performer: [{ reference: 'Organization/lab', display: 'Bloom Lab' }],
      note: [],
      ...extra,
    },
  };
}

const detail: DetailReport = {
  // The shared fragments match on the __typename.
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
  ] as unknown as DetailReport['specimen'],
  result: [
    observation('glu', 'Glucose 1h', 192, 'mg/dL', 'HH', { note: [{ text: 'Repeat with a 3-hour test.' }] }),
    observation('hb', 'Hemoglobin', 12, 'g/dL', 'N'),
    ...['AA', 'LL', 'A'].map((code) => observation(`c-${code}`, `Test ${code}`, 1, 'mg/dL', code)),
  ] as DetailReport['result'],
};

function detailMock(reportData: DetailReport | null): ScreenMock {
  return {
    request: { query: LabResultDetailDocument, variables: { id: 'glucose' } },
    result: { data: { DiagnosticReport: reportData } },
  };
}

const route = { path: '/health-record/lab-results/glucose', pattern: '/health-record/lab-results/:resultId' };

describe('SPEC §2 diagnostic report view', () => {
  it('table columns Test, Value, Reference Range, Interpretation, Category, Performer, Status', async () => {
    renderScreen(<LabResultPage />, [detailMock(detail)], route);
    const table = await screen.findByRole('table', { name: 'Results' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual([
      'Test',
      'Value',
      'Reference Range',
      'Interpretation',
      'Category',
      'Performer',
      'Status',
    ]);
    const row = within(table).getByRole('row', { name: /Hemoglobin/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '12 g/dL',
      '70 mg/dL – 140 mg/dL'.replace(/mg\/dL/g, 'g/dL'),
      'Code N',
      'Laboratory',
      'Bloom Lab',
      'Final result',
    ]);
    expect(within(row).getByRole('link', { name: 'Hemoglobin' })).toHaveAttribute('href', '/Observation/hb');
    expect(document.title).toBe('Glucose challenge · Bloom');
  });

  it.each(['HH', 'AA', 'LL', 'A'])(
    'SPEC §9 critical code %s is highlighted and says Critical',
    async (code) => {
      renderScreen(<LabResultPage />, [detailMock(detail)], route);
      const table = await screen.findByRole('table', { name: 'Results' });
      const name = code === 'HH' ? 'Glucose 1h' : `Test ${code}`;
      const row = within(table).getByRole('link', { name }).closest('tr');
      expect(row).toHaveAttribute('data-critical', 'true');
      expect(row).toHaveTextContent('Critical');
    },
  );

  it('on a phone the results stack as cards, each critical one flagged first, with every column as a field', () => {
    const results = (detail.result ?? []).flatMap((ref) =>
      ref?.resource && 'id' in ref.resource ? [ref.resource as ResultObservation] : [],
    );
    renderScreen(<ReportResultsTable results={results} stacked />, []);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Results' });
    const glucose = within(list).getByRole('link', { name: 'Glucose 1h' }).closest('li');
    expect(glucose).toHaveAttribute('data-critical', 'true');
    // The flag comes before the name, so it is the first thing read and seen.
    expect(glucose?.firstElementChild).toHaveTextContent('Critical');
    expect(glucose).toHaveTextContent('192 mg/dL');
    expect(glucose).toHaveTextContent('Code HH');
    expect(glucose).toHaveTextContent('Final result');
    const hemoglobin = within(list).getByRole('link', { name: 'Hemoglobin' }).closest('li');
    expect(hemoglobin).not.toHaveAttribute('data-critical');
    expect(hemoglobin).not.toHaveTextContent('Critical');
    expect(hemoglobin).toHaveTextContent('Reference range70 g/dL – 140 g/dL');
  });

  it('a normal result (N) is not highlighted', async () => {
    renderScreen(<LabResultPage />, [detailMock(detail)], route);
    const row = within(await screen.findByRole('table', { name: 'Results' })).getByRole('row', {
      name: /Hemoglobin/,
    });
    expect(row).not.toHaveAttribute('data-critical');
    expect(row).not.toHaveTextContent('Critical');
  });

  it('shows Specimens with Collected and Received, the notes and the PDF in a 400 px frame with Download', async () => {
    renderScreen(<LabResultPage />, [detailMock(detail)], route);
    const specimens = await screen.findByRole('region', { name: 'Specimens' });
    expect(within(specimens).getByText('Venous blood')).toBeInTheDocument();
    expect(within(specimens).getByText('Collected')).toBeInTheDocument();
    expect(within(specimens).getByText('Received')).toBeInTheDocument();
    expect(within(specimens).getByText('Labelled at bedside.')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Notes' })).getByText('Repeat with a 3-hour test.'),
    ).toBeInTheDocument();
    const frame = screen.getByTitle('report.pdf');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('height', '400');
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      'https://files.test/report.pdf',
    );
  });

  it('not found: says so', async () => {
    renderScreen(<LabResultPage />, [detailMock(null)], route);
    expect(await screen.findByText('Lab result not found')).toBeInTheDocument();
  });

  it('error: shows the message', async () => {
    renderScreen(
      <LabResultPage />,
      [
        {
          request: { query: LabResultDetailDocument, variables: { id: 'glucose' } },
          error: new Error('Not found'),
        },
      ],
      route,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Not found');
  });
});
