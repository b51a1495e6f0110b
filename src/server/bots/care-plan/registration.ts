// What "a pregnancy is registered" means in FHIR terms here: a final (or amended/corrected)
// Observation dating the pregnancy, either the clinic's estimated due date (LOINC 11778-8) or the
// first day of the last period the patient enters in the app (LOINC 8665-2). Pure data, shared by
// the care-plan bot (bundled), its seed and PlanDefinition/$apply.
export const ESTIMATED_DUE_DATE_CODE = 'http://loinc.org|11778-8';
export const LAST_PERIOD_CODE = 'http://loinc.org|8665-2';
export const REGISTRATION_CODES: readonly string[] = [ESTIMATED_DUE_DATE_CODE, LAST_PERIOD_CODE];
export const REGISTRATION_STATUSES: readonly string[] = ['final', 'amended', 'corrected'];

/** The Subscription criteria that run the care-plan bot. */
export const REGISTRATION_CRITERIA = `Observation?code=${REGISTRATION_CODES.join(',')}`;

/** The clinic's pregnancy care template, found by this canonical URL in the patient's project. */
export const PREGNANCY_PLAN_URL = 'https://bloom.example/fhir/PlanDefinition/pregnancy-care';

/**
 * A plan of the template still running counts as this pregnancy's plan: a new one is made only once
 * the clinic has ended the last (completed, revoked or entered in error).
 */
export const RUNNING_PLAN_STATUSES: readonly string[] = ['draft', 'active', 'on-hold'];
