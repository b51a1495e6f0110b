// A kick count: from 28 weeks she counts her baby's movements until she reaches ten. Ten within two
// hours is reassuring; fewer means she should call her care team now (the usual triage rule). One
// count is stored as an Observation: LOINC 57088-7 "Fetal movement - reported", the movements as
// valueQuantity and the counting time as effectivePeriod, preliminary like every patient entry.
import type { Observation } from '@medplum/fhirtypes';
import { observationCategory } from '../../../fhir/observation-category';
import type { Translate } from '../../i18n/LocaleProvider';
import { kickCountStrings } from './strings';

export const KICK_COUNT_GOAL = 10;
export const KICK_COUNT_WINDOW_MS = 2 * 60 * 60 * 1000;
export const KICK_COUNT_CODE = {
  system: 'http://loinc.org',
  code: '57088-7',
  display: 'Fetal movement - reported',
};

export function kickCountObservation(
  patient: string,
  movements: number,
  start: Date,
  end: Date,
): Observation {
  return {
    resourceType: 'Observation',
    status: 'preliminary',
    category: observationCategory('survey'),
    code: { coding: [KICK_COUNT_CODE], text: 'Kick count' },
    subject: { reference: patient },
    effectivePeriod: { start: start.toISOString(), end: end.toISOString() },
    valueQuantity: {
      value: movements,
      unit: 'movements',
      system: 'http://unitsofmeasure.org',
      code: '{movements}',
    },
  };
}

/** Whole minutes between two instants, at least 1 so a quick count never reads "0 minutes". */
export function minutesBetween(start: string | Date, end: string | Date): number {
  const ms = new Date(end).getTime() - new Date(start).getTime();
  return Math.max(1, Math.round(ms / 60_000));
}

/** A count that ended below the goal, or reached it only after the two-hour window. */
export function isReduced(movements: number, start: string | Date, end: string | Date): boolean {
  const ms = new Date(end).getTime() - new Date(start).getTime();
  return movements < KICK_COUNT_GOAL || ms > KICK_COUNT_WINDOW_MS;
}

/** "10 movements in 12 minutes", in the active language. */
export function countSummary(t: Translate, movements: number, minutes: number): string {
  return t(kickCountStrings.summary, { movements, minutes });
}
