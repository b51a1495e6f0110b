// Builds a laboratory DiagnosticReport from a compact description: its Specimens (collected,
// received, notes), its result Observations (value, reference range, interpretation, category
// laboratory, performer, note) and, when asked, a PDF rendering in presentedForm.
import type {
  CodeableConcept,
  DiagnosticReport,
  Observation,
  ObservationReferenceRange,
  Organization,
  Patient,
  Practitioner,
  Quantity,
  Reference,
  Specimen,
} from '@medplum/fhirtypes';
import { type InterpretationCode, UCUM, interpretation, observationCategory } from './codes';
import type { DemoContext } from './demo-context';
import { buildTextPdf } from './pdf-document';

export interface LabQuantity {
  value: number;
  unit: string;
  /** UCUM code of the unit. */
  ucum: string;
}

export interface LabResultSpec {
  key: string;
  code: CodeableConcept;
  /** A measured quantity, or the text of a coded/qualitative result ('Negative', 'O'). */
  value: LabQuantity | string;
  /** Numeric bounds in the value's unit, and/or a text such as 'Negative'. */
  range: { low?: number; high?: number; text: string };
  interpretation: InterpretationCode;
  note?: string;
}

export interface LabSpecimenSpec {
  key: string;
  type: string;
  collectedHour: number;
  collectedMinute?: number;
  /** Minutes between collection and the laboratory's receipt. */
  receivedAfterMinutes: number;
  note: string;
}

export interface LabReportSpec {
  key: string;
  code: CodeableConcept;
  section: CodeableConcept;
  /** The day of collection, relative to the seeding day. */
  collectedDaysFromToday: number;
  /** Days between collection and the final report (cultures take longer). */
  issuedAfterDays: number;
  specimens: LabSpecimenSpec[];
  results: LabResultSpec[];
  conclusion: string;
  /** Attach a PDF rendering of the report as presentedForm. */
  withPdf?: boolean;
}

export interface LabPeople {
  patient: Reference<Patient>;
  /** Key prefix of the patient's resources in the bundle, e.g. 'maria'. */
  patientKey: string;
  laboratory: Reference<Organization>;
  interpreter: Reference<Practitioner>;
  collector: Reference<Practitioner>;
}

export function addLabReport(
  { tx, calendar }: DemoContext,
  people: LabPeople,
  spec: LabReportSpec,
): Reference<DiagnosticReport> {
  const day = spec.collectedDaysFromToday;
  const issued = calendar.at(day + spec.issuedAfterDays, 15, 30);

  const specimens = spec.specimens.map((specimen) => {
    const collected = calendar.instant(day, specimen.collectedHour, specimen.collectedMinute ?? 0);
    const received = new Date(collected.getTime() + specimen.receivedAfterMinutes * 60 * 1000);
    const resource: Specimen = {
      resourceType: 'Specimen',
      status: 'available',
      type: { text: specimen.type },
      subject: people.patient,
      receivedTime: toFhirInstant(received),
      collection: { collector: people.collector, collectedDateTime: toFhirInstant(collected) },
      note: [{ text: specimen.note }],
    };
    return {
      spec: specimen,
      collected: resource.collection?.collectedDateTime as string,
      received: resource.receivedTime as string,
      ref: tx.add<Specimen>(
        `specimen-${people.patientKey}-${spec.key}-${specimen.key}`,
        resource,
        specimen.type,
      ),
    };
  });
  const firstSpecimen = specimens[0];

  const results = spec.results.map((result) => {
    const observation: Observation = {
      resourceType: 'Observation',
      status: 'final',
      category: [observationCategory('laboratory')],
      code: result.code,
      subject: people.patient,
      effectiveDateTime: firstSpecimen.collected,
      issued,
      performer: [people.laboratory],
      ...observationValue(result.value),
      referenceRange: [referenceRange(result)],
      interpretation: [interpretation(result.interpretation)],
      specimen: firstSpecimen.ref,
      ...(result.note ? { note: [{ text: result.note }] } : {}),
    };
    return tx.add<Observation>(
      `observation-${people.patientKey}-${spec.key}-${result.key}`,
      observation,
      result.code.text,
    );
  });

  const report: DiagnosticReport = {
    resourceType: 'DiagnosticReport',
    status: 'final',
    category: [spec.section],
    code: spec.code,
    subject: people.patient,
    effectiveDateTime: firstSpecimen.collected,
    issued,
    performer: [people.laboratory],
    resultsInterpreter: [people.interpreter],
    specimen: specimens.map((specimen) => specimen.ref),
    result: results,
    conclusion: spec.conclusion,
  };
  if (spec.withPdf) {
    const lines = [
      `Patient: ${people.patient.display ?? ''}`,
      ...specimens.map((s) => `Specimen: ${s.spec.type}, collected ${s.collected}, received ${s.received}`),
      `Issued: ${issued}`,
      '',
      ...spec.results.map(
        (r) => `${r.code.text}: ${formatValue(r.value)}   range ${r.range.text}   flag ${r.interpretation}`,
      ),
      '',
      `Conclusion: ${spec.conclusion}`,
      `Performed by ${people.laboratory.display ?? 'the laboratory'}; reviewed by ${people.interpreter.display ?? ''}.`,
    ];
    const pdf = buildTextPdf(spec.code.text ?? 'Laboratory report', lines);
    report.presentedForm = [
      {
        contentType: 'application/pdf',
        data: btoa(pdf),
        size: pdf.length,
        title: `${spec.code.text ?? 'Laboratory report'}.pdf`,
        creation: issued,
      },
    ];
  }
  return tx.add(`diagnostic-report-${people.patientKey}-${spec.key}`, report, spec.code.text);
}

function observationValue(
  value: LabQuantity | string,
): Pick<Observation, 'valueQuantity' | 'valueCodeableConcept'> {
  if (typeof value === 'string') {
    return { valueCodeableConcept: { text: value } };
  }
  return { valueQuantity: labQuantity(value.value, value) };
}

function referenceRange(result: LabResultSpec): ObservationReferenceRange {
  const range: ObservationReferenceRange = { text: result.range.text };
  if (typeof result.value !== 'string') {
    if (result.range.low !== undefined) {
      range.low = labQuantity(result.range.low, result.value);
    }
    if (result.range.high !== undefined) {
      range.high = labQuantity(result.range.high, result.value);
    }
  }
  return range;
}

function labQuantity(value: number, unit: LabQuantity): Quantity {
  return { value, unit: unit.unit, system: UCUM, code: unit.ucum };
}

function formatValue(value: LabQuantity | string): string {
  return typeof value === 'string' ? value : `${value.value} ${value.unit}`;
}

function toFhirInstant(date: Date): string {
  return date.toISOString().replace('.000Z', 'Z');
}
