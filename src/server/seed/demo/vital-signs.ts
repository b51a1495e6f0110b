// Vital signs coded exactly as SPEC §3 "Vital types": blood pressure 85354-9 with systolic 8480-6
// and diastolic 8462-4 components in mm[Hg], heart rate 8867-4 in beats/minute (UCUM /min) and
// weight 29463-7 in lbs (UCUM [lb_av]); LOINC codes, UCUM units, category vital-signs.
import type { Observation, Patient, Practitioner, Quantity, Reference } from '@medplum/fhirtypes';
import { UCUM, VITAL_SIGNS, loinc, observationCategory } from './codes';
import type { DemoContext } from './demo-context';

export interface VitalReading {
  daysFromToday: number;
  hour: number;
  systolic: number;
  diastolic: number;
  heartRate: number;
  weightLbs: number;
}

export interface VitalSubject {
  /** Key prefix of the patient's resources in the bundle, e.g. 'maria'. */
  key: string;
  patient: Reference<Patient>;
  performer: Reference<Patient | Practitioner>;
}

/** Adds a blood pressure, heart rate and weight Observation for each reading. */
export function addVitalSigns(
  { tx, calendar }: DemoContext,
  subject: VitalSubject,
  readings: readonly VitalReading[],
): void {
  for (const reading of readings) {
    const base = {
      resourceType: 'Observation' as const,
      status: 'final' as const,
      category: [observationCategory('vital-signs')],
      subject: subject.patient,
      effectiveDateTime: calendar.at(reading.daysFromToday, reading.hour),
      issued: calendar.at(reading.daysFromToday, reading.hour, 5),
      performer: [subject.performer],
    };
    const suffix = `${subject.key}-${reading.daysFromToday}`;

    const bloodPressure: Observation = {
      ...base,
      code: loinc(VITAL_SIGNS.bloodPressure.code, VITAL_SIGNS.bloodPressure.display, 'Blood pressure'),
      component: [
        {
          code: loinc(VITAL_SIGNS.systolic.code, VITAL_SIGNS.systolic.display),
          valueQuantity: quantity(reading.systolic, VITAL_SIGNS.systolic),
        },
        {
          code: loinc(VITAL_SIGNS.diastolic.code, VITAL_SIGNS.diastolic.display),
          valueQuantity: quantity(reading.diastolic, VITAL_SIGNS.diastolic),
        },
      ],
    };
    const heartRate: Observation = {
      ...base,
      code: loinc(VITAL_SIGNS.heartRate.code, VITAL_SIGNS.heartRate.display),
      valueQuantity: quantity(reading.heartRate, VITAL_SIGNS.heartRate),
    };
    const weight: Observation = {
      ...base,
      code: loinc(VITAL_SIGNS.weight.code, VITAL_SIGNS.weight.display, 'Weight'),
      valueQuantity: quantity(reading.weightLbs, VITAL_SIGNS.weight),
    };

    tx.add(`vitals-blood-pressure-${suffix}`, bloodPressure);
    tx.add(`vitals-heart-rate-${suffix}`, heartRate);
    tx.add(`vitals-weight-${suffix}`, weight);
  }
}

function quantity(value: number, unit: { unit: string; ucum: string }): Quantity {
  return { value, unit: unit.unit, system: UCUM, code: unit.ucum };
}

// Small fixed wobbles so the charts look like real home readings, not straight lines.
const SYSTOLIC_WOBBLE = [0, 3, -2, 4, 1, -3, 2, 5, -1, 0, 3, -2, 1, 4, -1, 2, 0, 3, 5, 2];
const DIASTOLIC_WOBBLE = [0, 2, -1, 3, 0, -2, 1, 2, -1, 1, 2, 0, -1, 3, 1, 0, 2, 1, 3, 2];
const HEART_RATE_WOBBLE = [0, 2, -1, 3, -2, 1, 4, 0, 2, -1, 3, 1, -2, 2, 0, 4, 1, 3, 2, 5];
const WEIGHT_WOBBLE = [
  0, 0.4, -0.2, 0.6, 0.1, -0.3, 0.5, 0.2, -0.1, 0.3, 0.6, -0.2, 0.4, 0.1, 0.5, -0.1, 0.3, 0.2, 0.6, 0.4,
];

/**
 * Maria's 20 weekly home readings, oldest (about 16 weeks pregnant) to newest (yesterday): weight
 * gains about a pound a week, blood pressure stays normal, heart rate rises gently as pregnancy
 * advances.
 */
export function buildWeeklyReadings(weeks: number, startWeightLbs: number): VitalReading[] {
  const readings: VitalReading[] = [];
  for (let i = 0; i < weeks; i++) {
    const weeksAgo = weeks - 1 - i;
    const wobble = i % SYSTOLIC_WOBBLE.length;
    readings.push({
      daysFromToday: -(weeksAgo * 7 + 1),
      hour: 8,
      systolic: 108 + SYSTOLIC_WOBBLE[wobble],
      diastolic: 68 + DIASTOLIC_WOBBLE[wobble],
      heartRate: 78 + Math.round(i * 0.5) + HEART_RATE_WOBBLE[wobble],
      weightLbs: Math.round((startWeightLbs + i * 1.0 + WEIGHT_WOBBLE[wobble]) * 10) / 10,
    });
  }
  return readings;
}
