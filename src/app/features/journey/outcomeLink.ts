// Where the record that completed a care-plan step opens on the patient's own screens.
const SCREENS: Readonly<Record<string, { path: string; label: string }>> = {
  Immunization: { path: '/health-record/vaccines/', label: 'See the vaccine' },
  DiagnosticReport: { path: '/health-record/lab-results/', label: 'See the result' },
  Observation: { path: '/Observation/', label: 'See the result' },
  QuestionnaireResponse: { path: '/forms/responses/', label: 'See your answers' },
};

export interface OutcomeLink {
  readonly to?: string;
  readonly label: string;
}

export function outcomeLink(reference: string): OutcomeLink {
  const [type, id] = reference.split('/');
  const screen = SCREENS[type];
  if (screen && id) return { to: `${screen.path}${id}`, label: screen.label };
  return { label: type === 'Appointment' ? 'Visit attended' : 'Recorded by your care team' };
}
