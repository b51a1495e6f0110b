// What the patient's screen says after a screening: the clinic's scoring bot's Observation read as an
// alert or not (the same rule the bot applies), and whom to call, from her clinic's Organization.
import { EPDS_SELF_HARM_CODE, isEpdsAlert } from '../../../fhir/screening/epds';
import type { ScreeningResultQuery } from '../../../graphql';

/** The emergency number of the clinic's country (the demo clinic is in the United States). */
export const EMERGENCY_NUMBER = '911';
/** The US Suicide & Crisis Lifeline: call or text, any time. */
export const CRISIS_LINE = '988';

export type ScreeningOutcome =
  { kind: 'waiting' } | { kind: 'thanks' } | { kind: 'alert'; selfHarm: boolean };

export interface ClinicContact {
  name: string;
  phone: string | undefined;
}

export function screeningOutcome(data: ScreeningResultQuery | undefined): ScreeningOutcome {
  const score = data?.ObservationList?.[0];
  if (typeof score?.valueInteger !== 'number') return { kind: 'waiting' };
  const selfHarm =
    score.component?.find((c) => c?.code?.coding?.some((coding) => coding?.code === EPDS_SELF_HARM_CODE))
      ?.valueInteger ?? 0;
  return isEpdsAlert(score.valueInteger, selfHarm)
    ? { kind: 'alert', selfHarm: selfHarm > 0 }
    : { kind: 'thanks' };
}

export function clinicContact(data: ScreeningResultQuery | undefined): ClinicContact {
  const organization = data?.Patient?.managingOrganization;
  const resource =
    organization?.resource && 'name' in organization.resource ? organization.resource : undefined;
  const phone = resource?.telecom?.find((t) => t?.system === 'phone' && t.value)?.value ?? undefined;
  return { name: resource?.name ?? organization?.display ?? 'your clinic', phone };
}
