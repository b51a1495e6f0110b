// Where the record that completed a care-plan step opens on the patient's own screens.
import type { Message } from '../../i18n/catalog';
import { journeyStrings } from './strings';

const SCREENS: Readonly<Record<string, { path: string; label: Message }>> = {
  Immunization: { path: '/health-record/vaccines/', label: journeyStrings.seeVaccine },
  DiagnosticReport: { path: '/health-record/lab-results/', label: journeyStrings.seeResult },
  Observation: { path: '/Observation/', label: journeyStrings.seeResult },
  QuestionnaireResponse: { path: '/forms/responses/', label: journeyStrings.seeAnswers },
};

export interface OutcomeLink {
  readonly to?: string;
  readonly label: Message;
}

export function outcomeLink(reference: string): OutcomeLink {
  const [type, id] = reference.split('/');
  const screen = SCREENS[type];
  if (screen && id) return { to: `${screen.path}${id}`, label: screen.label };
  return { label: type === 'Appointment' ? journeyStrings.visitAttended : journeyStrings.recorded };
}
