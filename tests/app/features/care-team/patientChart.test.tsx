// A care-team member's patient chart (SPEC §2 roles, §6; the patient screens reused for her patient):
// the heading and the open tab's data come in one GraphQL request (PatientChart), the Lab results list
// is answered from Apollo's cache, and the chart's sections are links with the current one marked.
import { ApolloLink } from '@apollo/client';
import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { PatientChartDocument } from '../../../../src/graphql';
import { ChartAppointments } from '../../../../src/app/features/care-team/ChartAppointments';
import { PatientChartLayout } from '../../../../src/app/features/care-team/PatientChartLayout';
import { LabResultsPage } from '../../../../src/app/features/health-record/LabResultsPage';
import { renderScreen, type ScreenMock } from '../../support/renderScreen';

const patientId = 'maria-1';
const patient = {
  __typename: 'Patient',
  resourceType: 'Patient',
  id: patientId,
  birthDate: '1992-04-18',
  name: [{ __typename: 'HumanName', given: ['Maria'], family: 'Garcia' }],
};

function report(id: string, name: string) {
  return {
    __typename: 'DiagnosticReportEdge',
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

function chartMock(tab: { appointments: boolean; labResults: boolean }, extra: object): ScreenMock {
  return {
    request: {
      query: PatientChartDocument,
      variables: { id: patientId, patient: `Patient/${patientId}`, ...tab },
    },
    result: { data: { Patient: patient, ...extra } },
  };
}

const labTab = chartMock(
  { appointments: false, labResults: true },
  {
    DiagnosticReportConnection: {
      __typename: 'DiagnosticReportConnection',
      count: 2,
      offset: 0,
      edges: [report('r1', 'Complete blood count'), report('r2', 'Glucose tolerance')],
    },
  },
);

const appointmentsTab = chartMock(
  { appointments: true, labResults: false },
  {
    AppointmentList: [
      {
        __typename: 'Appointment',
        resourceType: 'Appointment',
        id: 'a1',
        status: 'booked',
        start: '2026-12-02T10:00:00Z',
        description: null,
        cancelationReason: null,
        serviceType: [{ __typename: 'CodeableConcept', text: 'Prenatal visit' }],
      },
    ],
  },
);

/** Counts the GraphQL operations that reach the network (the mocks), by name. */
function countingLink(counts: string[]): ApolloLink {
  return new ApolloLink((operation, forward) => {
    counts.push(operation.operationName ?? '');
    return forward(operation);
  });
}

function renderChart(path: string, mocks: ScreenMock[]) {
  const sent: string[] = [];
  const chart = (
    <Routes>
      <Route path="/patients/:patientId" element={<PatientChartLayout />}>
        <Route path="health-record/lab-results" element={<LabResultsPage />} />
        <Route path="health-record/vitals" element={<p>Vitals screen</p>} />
        <Route path="appointments" element={<ChartAppointments />} />
      </Route>
    </Routes>
  );
  const rendered = renderScreen(chart, mocks, { path, pattern: '*', link: countingLink(sent) });
  return { ...rendered, sent };
}

describe('SPEC §2 patient chart: one request per tab', () => {
  it('the Lab results tab is one GraphQL request: the list comes from the chart query through the cache', async () => {
    const { sent } = renderChart(`/patients/${patientId}/health-record/lab-results`, [labTab]);
    expect(await screen.findByRole('link', { name: 'Complete blood count' })).toHaveAttribute(
      'href',
      `/patients/${patientId}/health-record/lab-results/r1`,
    );
    expect(screen.getByRole('link', { name: 'Glucose tolerance' })).toBeInTheDocument();
    expect(screen.getByText('Maria Garcia')).toBeInTheDocument();
    // A LabResultList request would find no mock and show an error: there is none, and one request went.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(sent).toEqual(['PatientChart']);
  });

  it('the sections are links; the current one is marked, and moving to another keeps the heading', async () => {
    const { sent } = renderChart(`/patients/${patientId}/health-record/lab-results`, [
      labTab,
      appointmentsTab,
    ]);
    await screen.findByRole('link', { name: 'Complete blood count' });
    const nav = screen.getByRole('navigation', { name: 'Patient chart' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Lab results',
      'Vitals',
      'Medications',
      'Vaccines',
      'Messages',
      'Appointments',
    ]);
    expect(within(nav).getByRole('link', { name: 'Lab results' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Vitals' })).not.toHaveAttribute('aria-current');
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();

    fireEvent.click(within(nav).getByRole('link', { name: 'Appointments' }));
    expect(screen.getByText('Maria Garcia')).toBeInTheDocument();
    expect(await screen.findByText('Prenatal visit')).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Appointments' })).toHaveAttribute('aria-current', 'page');
    expect(sent).toEqual(['PatientChart', 'PatientChart']);

    // A tab with its own query: the heading is cached, so the chart sends nothing more.
    fireEvent.click(within(nav).getByRole('link', { name: 'Vitals' }));
    expect(await screen.findByText('Vitals screen')).toBeInTheDocument();
    expect(sent).toEqual(['PatientChart', 'PatientChart']);
  });

  it('a patient the chart cannot read shows the not-found panel', async () => {
    renderChart(`/patients/${patientId}/appointments`, [
      {
        request: appointmentsTab.request,
        result: { data: { Patient: null, AppointmentList: [] } },
      },
    ]);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(/couldn.t find/i);
    expect(screen.queryByRole('navigation', { name: 'Patient chart' })).not.toBeInTheDocument();
  });
});
