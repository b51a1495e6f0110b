// The sections of a care-team member's patient chart (/patients/{id}/...): the patient's own screens,
// reused for her (health record, messages), and her appointments.
export interface ChartTab {
  readonly label: string;
  /** Relative to /patients/{id}. */
  readonly path: string;
}

export const CHART_TABS: readonly ChartTab[] = [
  { label: 'Lab results', path: 'health-record/lab-results' },
  { label: 'Vitals', path: 'health-record/vitals' },
  { label: 'Medications', path: 'health-record/medications' },
  { label: 'Vaccines', path: 'health-record/vaccines' },
  { label: 'Messages', path: 'messages' },
  { label: 'Appointments', path: 'appointments' },
];

/** The tab a chart path belongs to (its first one or two segments), or undefined. */
export function currentTab(rest: string): ChartTab | undefined {
  return CHART_TABS.find((tab) => rest === tab.path || rest.startsWith(`${tab.path}/`));
}

/** What the chart's one query (PatientChart) reads besides the patient, for the screen at `rest`. */
export interface ChartTabData {
  readonly appointments: boolean;
  readonly labResults: boolean;
}

/**
 * The Lab results list and the Appointments tab come with the chart's heading in one request; the other
 * tabs' screens (and a lab report's detail) ask for their own data.
 */
export function chartTabData(rest: string): ChartTabData {
  return { appointments: rest === 'appointments', labResults: rest === 'health-record/lab-results' };
}

const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

export function isFhirId(value: string | undefined): value is string {
  return value !== undefined && FHIR_ID.test(value);
}
