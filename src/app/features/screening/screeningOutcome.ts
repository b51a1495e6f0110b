// What the patient's screen says after a screening: the clinic's scoring bot's Observation read as an
// alert or not (the same rule the bot applies).
import { EPDS_SELF_HARM_CODE, isEpdsAlert } from '../../../fhir/screening/epds';
import type { ScreeningResultQuery } from '../../../graphql';

/** The US Suicide & Crisis Lifeline: call or text, any time. */
export const CRISIS_LINE = '988';

export type ScreeningOutcome =
  { kind: 'waiting' } | { kind: 'thanks' } | { kind: 'alert'; selfHarm: boolean };

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
