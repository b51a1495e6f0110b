// Observation.category from HL7's observation-category code system, written the same way wherever
// Bloom creates an Observation (the app's vitals and last period, the EPDS scoring bot).
import type { CodeableConcept } from '@medplum/fhirtypes';

export const OBSERVATION_CATEGORY_SYSTEM = 'http://terminology.hl7.org/CodeSystem/observation-category';

const DISPLAYS = { 'vital-signs': 'Vital Signs', survey: 'Survey' } as const;

/** The `category` array of an Observation in one of these categories. */
export function observationCategory(code: keyof typeof DISPLAYS): CodeableConcept[] {
  return [{ coding: [{ system: OBSERVATION_CATEGORY_SYSTEM, code, display: DISPLAYS[code] }] }];
}
