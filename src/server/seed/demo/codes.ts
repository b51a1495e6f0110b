// Code systems and codes shared by the demo resources. Vital-sign codes and units are exactly those
// of SPEC §3 "Vital types"; interpretation codes are HL7 v3 ObservationInterpretation, whose
// AA, HH, LL and A are the critical codes of SPEC §4/§9.
import type { CodeableConcept, Coding } from '@medplum/fhirtypes';

export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
export const SNOMED = 'http://snomed.info/sct';
export const CVX = 'http://hl7.org/fhir/sid/cvx';
export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
export const DIAGNOSTIC_SERVICE_SECTION = 'http://terminology.hl7.org/CodeSystem/v2-0074';
export const OBSERVATION_INTERPRETATION =
  'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';

/**
 * The service the clinic offers (SNOMED CT "Antenatal care"): Dr. Chen's Schedule.serviceType and
 * the clinic's HealthcareService.type carry this same coding.
 */
export const PRENATAL_CARE_SERVICE: Readonly<CodeableConcept> = {
  coding: [{ system: SNOMED, code: '424525001', display: 'Antenatal care' }],
  text: 'Prenatal care',
};

export type InterpretationCode = 'N' | 'L' | 'H' | 'LL' | 'HH' | 'A' | 'AA';

const INTERPRETATION_DISPLAY: Record<InterpretationCode, string> = {
  N: 'Normal',
  L: 'Low',
  H: 'High',
  LL: 'Critical low',
  HH: 'Critical high',
  A: 'Abnormal',
  AA: 'Critical abnormal',
};

/** SPEC §9: the interpretation codes the diagnostic report view highlights. */
export const CRITICAL_INTERPRETATION_CODES: readonly InterpretationCode[] = ['AA', 'LL', 'HH', 'A'];

export function interpretation(code: InterpretationCode): CodeableConcept {
  const display = INTERPRETATION_DISPLAY[code];
  return { coding: [{ system: OBSERVATION_INTERPRETATION, code, display }], text: display };
}

export function loinc(code: string, display: string, text = display): CodeableConcept {
  return { coding: [{ system: LOINC, code, display }], text };
}

export function observationCategory(code: 'laboratory' | 'vital-signs'): CodeableConcept {
  const display = code === 'laboratory' ? 'Laboratory' : 'Vital Signs';
  return { coding: [{ system: OBSERVATION_CATEGORY, code, display }], text: display };
}

export function diagnosticSection(
  code: 'HM' | 'CH' | 'URN' | 'MB' | 'SR' | 'BLB',
  display: string,
): CodeableConcept {
  return { coding: [{ system: DIAGNOSTIC_SERVICE_SECTION, code, display }], text: display };
}

export function snomed(code: string, display: string): Coding {
  return { system: SNOMED, code, display };
}

/** SPEC §3 "Vital types": code, display and unit of each vital the app charts. */
export const VITAL_SIGNS = {
  bloodPressure: { code: '85354-9', display: 'Blood pressure panel with all children optional' },
  systolic: { code: '8480-6', display: 'Systolic blood pressure', unit: 'mm[Hg]', ucum: 'mm[Hg]' },
  diastolic: { code: '8462-4', display: 'Diastolic blood pressure', unit: 'mm[Hg]', ucum: 'mm[Hg]' },
  heartRate: { code: '8867-4', display: 'Heart rate', unit: 'beats/minute', ucum: '/min' },
  weight: { code: '29463-7', display: 'Body weight', unit: 'lbs', ucum: '[lb_av]' },
} as const;
