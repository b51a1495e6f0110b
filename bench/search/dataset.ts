// The search benchmark's synthetic clinic: Patients, Observations of vitals
// and labs, DiagnosticReports pointing at some of them, Communications, and Schedules with hourly
// Slots. Deterministic (seeded), with ids known in advance so queries can pick real targets.
import type {
  Communication,
  DiagnosticReport,
  Observation,
  Patient,
  Practitioner,
  Resource,
  Schedule,
  Slot,
} from '@medplum/fhirtypes';

export const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';

export const VITALS = [
  { code: '8867-4', display: 'Heart rate', unit: '/min', min: 50, max: 120 },
  { code: '8480-6', display: 'Systolic blood pressure', unit: 'mm[Hg]', min: 90, max: 170 },
  { code: '8462-4', display: 'Diastolic blood pressure', unit: 'mm[Hg]', min: 50, max: 110 },
  { code: '29463-7', display: 'Body weight', unit: 'kg', min: 45, max: 120 },
  { code: '8310-5', display: 'Body temperature', unit: 'Cel', min: 35.5, max: 39.5 },
];
export const LABS = [
  { code: '2339-0', display: 'Glucose', unit: 'mg/dL', min: 60, max: 250 },
  { code: '718-7', display: 'Hemoglobin', unit: 'g/dL', min: 8, max: 17 },
  { code: '2093-3', display: 'Cholesterol', unit: 'mg/dL', min: 120, max: 300 },
  { code: '4548-4', display: 'Hemoglobin A1c', unit: '%', min: 4, max: 12 },
];
const FAMILIES = [
  'Smith',
  'Smithson',
  'Smyth',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernández',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Pérez',
  'Thompson',
  'White',
  'Harris',
  'Sánchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
];
const GIVENS = ['Maria', 'Aisha', 'Olivia', 'Emma', 'Sofia', 'Chloé', 'Amara', 'Lena', 'Yuki', 'Priya'];

/** mulberry32: a small seeded PRNG, so every run loads the same clinic. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DatasetShape {
  total: number;
  patients: number;
  observations: number;
  reports: number;
  communications: number;
  schedules: number;
  slotsPerSchedule: number;
  practitioners: number;
}

/** About 1% Patients (at most 10,000), 80% Observations, 8% reports, 8% messages, 3% Slots. */
export function datasetShape(total: number): DatasetShape {
  const patients = Math.max(10, Math.min(10_000, Math.round(total / 100)));
  const schedules = Math.max(1, Math.round(total / 10_000));
  const slotsPerSchedule = Math.max(24, Math.round((total * 0.03) / schedules));
  const practitioners = Math.max(1, schedules);
  const rest = total - patients - schedules * (slotsPerSchedule + 1) - practitioners;
  const reports = Math.round(rest * 0.09);
  const communications = Math.round(rest * 0.09);
  return {
    total,
    patients,
    observations: Math.max(0, rest - reports - communications),
    reports,
    communications,
    schedules,
    slotsPerSchedule,
    practitioners,
  };
}

export const SLOT_START = Date.UTC(2026, 0, 1);
const DATA_START = Date.UTC(2023, 0, 1);
const DATA_SPAN = 3 * 365 * 24 * 3600 * 1000;

const iso = (ms: number): string => new Date(ms).toISOString();

/** Yields the clinic in write order (targets before what points at them), in chunks. */
export function* generateDataset(shape: DatasetShape, chunk: number, seed = 2026): Generator<Resource[]> {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const between = (min: number, max: number, decimals: number): number =>
    Number((min + random() * (max - min)).toFixed(decimals));
  let batch: Resource[] = [];
  function* push(resource: Resource): Generator<Resource[]> {
    batch.push(resource);
    if (batch.length >= chunk) {
      yield batch;
      batch = [];
    }
  }

  for (let i = 0; i < shape.practitioners; i++) {
    const practitioner: Practitioner = {
      resourceType: 'Practitioner',
      id: `bp-${i}`,
      name: [{ family: pick(FAMILIES), given: ['Dr'] }],
    };
    yield* push(practitioner);
  }
  for (let i = 0; i < shape.patients; i++) {
    const patient: Patient = {
      resourceType: 'Patient',
      id: `p-${i}`,
      name: [{ family: pick(FAMILIES), given: [pick(GIVENS)] }],
      gender: 'female',
      birthDate: iso(Date.UTC(1975, 0, 1) + random() * 30 * 365 * 86_400_000).slice(0, 10),
      identifier: [{ system: 'urn:bench:mrn', value: `MRN-${i}` }],
    };
    yield* push(patient);
  }
  for (let i = 0; i < shape.observations; i++) {
    const lab = random() < 0.3;
    const kind = lab ? pick(LABS) : pick(VITALS);
    const observation: Observation = {
      resourceType: 'Observation',
      id: `o-${i}`,
      status: 'final',
      category: [
        {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/observation-category',
              code: lab ? 'laboratory' : 'vital-signs',
            },
          ],
        },
      ],
      code: { coding: [{ system: LOINC, code: kind.code, display: kind.display }], text: kind.display },
      subject: { reference: `Patient/p-${i % shape.patients}` },
      effectiveDateTime: iso(DATA_START + random() * DATA_SPAN),
      valueQuantity: {
        value: between(kind.min, kind.max, 1),
        unit: kind.unit,
        system: UCUM,
        code: kind.unit,
      },
    };
    yield* push(observation);
  }
  for (let i = 0; i < shape.reports; i++) {
    const patient = i % shape.patients;
    // Results: Observations of the same patient (o-k with k ≡ patient mod patients).
    const result = [0, 1, 2]
      .map((j) => patient + (Math.floor(random() * 50) + j) * shape.patients)
      .filter((k) => k < shape.observations)
      .map((k) => ({ reference: `Observation/o-${k}` }));
    const report: DiagnosticReport = {
      resourceType: 'DiagnosticReport',
      id: `dr-${i}`,
      status: 'final',
      code: { coding: [{ system: LOINC, code: '24323-8', display: 'Comprehensive metabolic panel' }] },
      subject: { reference: `Patient/p-${patient}` },
      effectiveDateTime: iso(DATA_START + random() * DATA_SPAN),
      result,
    };
    yield* push(report);
  }
  for (let i = 0; i < shape.communications; i++) {
    const communication: Communication = {
      resourceType: 'Communication',
      id: `c-${i}`,
      status: 'completed',
      subject: { reference: `Patient/p-${i % shape.patients}` },
      sender: { reference: `Practitioner/bp-${i % shape.practitioners}` },
      sent: iso(DATA_START + random() * DATA_SPAN),
      payload: [{ contentString: `Message ${i}` }],
    };
    yield* push(communication);
  }
  for (let s = 0; s < shape.schedules; s++) {
    const schedule: Schedule = {
      resourceType: 'Schedule',
      id: `s-${s}`,
      actor: [{ reference: `Practitioner/bp-${s % shape.practitioners}` }],
    };
    yield* push(schedule);
    for (let h = 0; h < shape.slotsPerSchedule; h++) {
      const start = SLOT_START + h * 3_600_000;
      const slot: Slot = {
        resourceType: 'Slot',
        id: `sl-${s}-${h}`,
        schedule: { reference: `Schedule/s-${s}` },
        status: random() < 0.7 ? 'free' : 'busy',
        start: iso(start),
        end: iso(start + 3_600_000),
      };
      yield* push(slot);
    }
  }
  if (batch.length > 0) {
    yield batch;
  }
}
