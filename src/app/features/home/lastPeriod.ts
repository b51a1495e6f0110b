// The last menstrual period (LOINC 8665-2) a patient enters when her record has no due date: stored as
// her own Observation, from which Home computes the due date (280 days later, Naegele's rule).
import type { Observation } from '@medplum/fhirtypes';
import { observationCategory } from '../../../fhir/observation-category';
import type { Message } from '../../i18n/catalog';
import { homeStrings as m } from './strings';

const DAY_MS = 24 * 60 * 60 * 1000;
export const LAST_PERIOD_CODE = '8665-2';
/** The longest a pregnancy is followed here: 42 weeks after the last period. */
const LONGEST_DAYS = 42 * 7;

/** Why a date cannot be the first day of the last period, or undefined when it can. */
export function lastPeriodProblem(value: string, now: Date): Message | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    return m.dateFormat;
  }
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = Date.parse(`${value}T00:00:00Z`);
  if (start > today) return m.dateInFuture;
  if (today - start > LONGEST_DAYS * DAY_MS) return m.dateTooOld;
  return undefined;
}

export function lastPeriodObservation(patient: string, value: string, now: Date): Observation {
  return {
    resourceType: 'Observation',
    status: 'final',
    category: observationCategory('survey'),
    code: {
      coding: [
        { system: 'http://loinc.org', code: LAST_PERIOD_CODE, display: 'Last menstrual period start date' },
      ],
      text: 'First day of last period',
    },
    subject: { reference: patient },
    performer: [{ reference: patient }],
    effectiveDateTime: now.toISOString(),
    valueDateTime: value,
  };
}
