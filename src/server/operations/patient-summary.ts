// Patient/{id}/$summary (Medplum conformance; SPEC §6 roles, §7 FHIR calls): an International
// Patient Summary as a document Bundle, as Medplum's server builds it: first a Composition (LOINC
// 60591-5 "Patient Summary") whose sections (allergies, immunizations, medications, problems,
// results, social history, vital signs, procedures, encounters, devices, assessments, plan of
// treatment, and goals, health concerns, functional status, notes, referral and insurance when there
// are any) list their resources with a generated narrative table; then the Patient, the author and
// every resource the sections were chosen from. The resources are read from the Patient compartment
// as $everything reads it (readPatientCompartment), so the caller sees only what she may read, and
// another patient's summary is a 404, as a read.
//
// Kept differences, on purpose: every entry has a fullUrl and the Bundle an identifier (FHIR's
// document invariants bdl-7/bdl-9; Medplum leaves both out); the author is listed once when it is the
// Patient herself; dates in the narrative are the FHIR dates, not the server's locale format.
import type {
  Bundle,
  CodeableConcept,
  Composition,
  CompositionSection,
  Condition,
  DiagnosticReport,
  Observation,
  Patient,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import { badRequest, createReference, OperationOutcomeError } from '../../fhir';
import type { Database } from '../db';
import type { QueryParams } from '../fhir/paging';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';
import { EVERYTHING_MAX_COUNT, readPatientCompartment } from './everything';
import { checkKnownParams, singleParam } from './query-params';

const LOINC = 'http://loinc.org';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const PATIENT_SUMMARY_DOCUMENT = '60591-5';
const NOTE_DOCUMENT = '34109-9';
const HEALTH_CONCERNS = '75310-3';
const REFERRAL_TO_HOSPITAL = '310449005';

// The types Medplum's $summary reads from the compartment.
const SUMMARY_TYPES = [
  'Account',
  'AllergyIntolerance',
  'CarePlan',
  'ClinicalImpression',
  'Coverage',
  'Condition',
  'DeviceUseStatement',
  'DiagnosticReport',
  'Encounter',
  'Goal',
  'Immunization',
  'MedicationRequest',
  'Observation',
  'Procedure',
  'RelatedPerson',
  'ServiceRequest',
];
const AUTHOR_TYPES = [
  'Practitioner',
  'PractitionerRole',
  'Organization',
  'Patient',
  'RelatedPerson',
  'Device',
];
const PARAMS = ['author', 'authoredOn', '_since'];
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const DATE_OR_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** The sections in Medplum's order; `always` sections are present even when empty. */
const SECTIONS = [
  { key: 'allergies', code: '48765-2', title: 'Allergies', always: true },
  { key: 'immunizations', code: '11369-6', title: 'Immunizations', always: true },
  { key: 'medications', code: '10160-0', title: 'Medications', always: true },
  { key: 'problems', code: '11450-4', title: 'Problem List', always: true },
  { key: 'results', code: '30954-2', title: 'Results', always: true },
  { key: 'socialHistory', code: '29762-2', title: 'Social History', always: true },
  { key: 'vitalSigns', code: '8716-3', title: 'Vital Signs', always: true },
  { key: 'procedures', code: '47519-4', title: 'Procedures', always: true },
  { key: 'encounters', code: '46240-8', title: 'Encounters', always: true },
  { key: 'devices', code: '46264-8', title: 'Devices', always: true },
  { key: 'assessments', code: '51848-0', title: 'Assessments', always: true },
  { key: 'plan', code: '18776-5', title: 'Plan of Treatment', always: true },
  { key: 'goals', code: '61146-7', title: 'Goals', always: false },
  { key: 'healthConcerns', code: HEALTH_CONCERNS, title: 'Health Concerns', always: false },
  { key: 'functionalStatus', code: '47420-5', title: 'Functional Status', always: false },
  { key: 'notes', code: '11488-4', title: 'Notes', always: false },
  { key: 'referral', code: '42349-1', title: 'Reason for Referral', always: false },
  { key: 'insurance', code: '48768-6', title: 'Insurance', always: false },
] as const;

type SectionKey = (typeof SECTIONS)[number]['key'];
type Row = (string | undefined)[];

interface SummaryRequest {
  author?: string;
  authoredOn?: string;
  since?: string;
}

/** GET's query, or POST's Parameters body (valueReference / valueString / valueInstant), as Medplum reads them. */
export function parseSummaryRequest(query: QueryParams, body: unknown): SummaryRequest {
  checkKnownParams(query, PARAMS, '$summary');
  const values: Record<string, string | undefined> = {};
  for (const name of PARAMS) {
    values[name] = singleParam(query, name);
  }
  if (body !== undefined && body !== null && body !== '') {
    for (const [name, value] of Object.entries(parametersOf(body))) {
      values[name] = value;
    }
  }
  const { author, authoredOn, _since: since } = values;
  if (
    author !== undefined &&
    !AUTHOR_TYPES.some((type) => new RegExp(`^${type}/[A-Za-z0-9\\-.]{1,64}$`).test(author))
  ) {
    throw new OperationOutcomeError(
      badRequest(
        `author must be a reference to one of ${AUTHOR_TYPES.join(', ')}, got '${author}'`,
        'author',
      ),
    );
  }
  if (authoredOn !== undefined && (!INSTANT.test(authoredOn) || Number.isNaN(Date.parse(authoredOn)))) {
    throw new OperationOutcomeError(
      badRequest(`authoredOn must be an instant, got '${authoredOn}'`, 'authoredOn'),
    );
  }
  if (since !== undefined && (!DATE_OR_INSTANT.test(since) || Number.isNaN(Date.parse(since)))) {
    throw new OperationOutcomeError(badRequest(`_since must be an instant, got '${since}'`, '_since'));
  }
  return { author, authoredOn, since };
}

/** The operation's parameters from a POST body: a FHIR Parameters resource naming only known ones. */
function parametersOf(body: unknown): Record<string, string> {
  // Malformed JSON never gets here: request-bodies.ts answers it for every route.
  const parameters = body as { resourceType?: unknown; parameter?: unknown } | null;
  if (!parameters || typeof parameters !== 'object' || parameters.resourceType !== 'Parameters') {
    throw new OperationOutcomeError(badRequest('The body of $summary must be a FHIR Parameters resource'));
  }
  const result: Record<string, string> = {};
  const list = parameters.parameter ?? [];
  if (!Array.isArray(list)) {
    throw new OperationOutcomeError(
      badRequest('Parameters.parameter must be an array', 'Parameters.parameter'),
    );
  }
  for (const [index, raw] of list.entries()) {
    const parameter = raw as {
      name?: unknown;
      valueReference?: Reference;
      valueString?: unknown;
      valueInstant?: unknown;
      valueDateTime?: unknown;
    };
    const name = parameter?.name;
    if (typeof name !== 'string' || !PARAMS.includes(name)) {
      throw new OperationOutcomeError(
        badRequest(
          `Unsupported parameter '${String(name)}' for $summary: use ${PARAMS.join(', ')}`,
          `Parameters.parameter[${index}]`,
        ),
      );
    }
    const value =
      parameter.valueReference?.reference ??
      parameter.valueString ??
      parameter.valueInstant ??
      parameter.valueDateTime;
    if (typeof value !== 'string') {
      throw new OperationOutcomeError(
        badRequest(`Parameter '${name}' has no value of its type`, `Parameters.parameter[${index}]`),
      );
    }
    result[name] = value;
  }
  return result;
}

export async function patientSummary(
  db: Database,
  context: RepositoryContext,
  fhirBase: string,
  patientId: string,
  request: SummaryRequest,
): Promise<Bundle> {
  // As Medplum: one page of the compartment (1,000 resources) holds a whole ordinary record.
  const { patient, resources } = await readPatientCompartment(db, context, patientId, {
    types: SUMMARY_TYPES,
    since: request.since,
    count: EVERYTHING_MAX_COUNT,
    offset: 0,
  });
  const authorRef = request.author ?? context.access?.profile.reference ?? `Patient/${patientId}`;
  const [authorType, authorId] = authorRef.split('/');
  const author =
    authorRef === `Patient/${patientId}`
      ? patient
      : await new Repository(db, context).readResource<Resource>(authorType, authorId);
  const composition = new SummaryBuilder(resources).composition(patient, author, request.authoredOn);
  const entries: Resource[] = [composition, patient, ...(author === patient ? [] : [author]), ...resources];
  return {
    resourceType: 'Bundle',
    identifier: { system: 'urn:ietf:rfc:3986', value: `urn:uuid:${crypto.randomUUID()}` },
    type: 'document',
    timestamp: new Date().toISOString(),
    entry: entries.map((resource) => ({
      fullUrl:
        resource === composition
          ? `urn:uuid:${resource.id}`
          : `${fhirBase}${resource.resourceType}/${resource.id}`,
      resource,
    })),
  };
}

/** Puts each resource in one section (Medplum's choices) and writes each section's table. */
class SummaryBuilder {
  private readonly byId = new Map<string, Resource>();
  private readonly sections = new Map<SectionKey, Resource[]>();

  constructor(private readonly resources: Resource[]) {
    for (const resource of resources) {
      this.byId.set(`${resource.resourceType}/${resource.id}`, resource);
    }
    const nested = nestedReferences(resources);
    for (const resource of resources) {
      if (nested.has(`${resource.resourceType}/${resource.id}`)) {
        continue;
      }
      const key = sectionOf(resource);
      if (key) {
        this.sections.set(key, [...(this.sections.get(key) ?? []), resource]);
      }
    }
  }

  composition(patient: Patient, author: Resource, authoredOn: string | undefined): Composition {
    const updated = this.resources
      .map((resource) => resource.meta?.lastUpdated)
      .filter((value): value is string => typeof value === 'string')
      .sort();
    const section: CompositionSection[] = [];
    for (const { key, code, title, always } of SECTIONS) {
      const entries = this.sections.get(key) ?? [];
      if (!always && entries.length === 0) {
        continue;
      }
      section.push({
        title,
        code: { coding: [{ system: LOINC, code }] },
        text: {
          status: 'generated',
          div: `<div xmlns="http://www.w3.org/1999/xhtml">${this.table(key, entries)}</div>`,
        },
        entry: entries.map((resource) => createReference(resource)),
      });
    }
    const custodian = patient.managingOrganization;
    return {
      resourceType: 'Composition',
      id: crypto.randomUUID(),
      status: 'final',
      type: { coding: [{ system: LOINC, code: PATIENT_SUMMARY_DOCUMENT, display: 'Patient Summary' }] },
      subject: createReference(patient),
      date: authoredOn ?? new Date().toISOString(),
      // The author parameter, or (as Medplum) the caller's profile.
      author: [createReference(author) as NonNullable<Composition['author']>[number]],
      title: 'Medical Summary',
      confidentiality: 'N',
      ...(custodian ? { custodian } : {}),
      ...(updated.length > 0
        ? { event: [{ period: { start: updated[0], end: updated[updated.length - 1] } }] }
        : {}),
      section,
    };
  }

  private table(key: SectionKey, entries: Resource[]): string {
    const [headings, rows] = this.rows(key, entries);
    if (rows.length === 0) {
      return '';
    }
    const cells = (tag: string, row: Row) =>
      row.map((cell) => `<${tag}>${escapeHtml(cell ?? '')}</${tag}>`).join('');
    return (
      `<table border="1" width="100%"><thead><tr>${cells('th', headings)}</tr></thead><tbody>` +
      rows.map((row) => `<tr>${cells('td', row)}</tr>`).join('') +
      '</tbody></table>'
    );
  }

  private rows(key: SectionKey, entries: Resource[]): [string[], Row[]] {
    const each = (map: (resource: Record<string, unknown>) => Row): Row[] =>
      entries.map((resource) => map(resource as unknown as Record<string, unknown>));
    const concept = (value: unknown) => formatConcept(value as CodeableConcept | undefined);
    const date = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : undefined);
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const first = (value: unknown) => (Array.isArray(value) ? (value[0] as unknown) : undefined);
    switch (key) {
      case 'allergies':
        return [
          ['Substance', 'Reaction', 'Severity', 'Status'],
          each((a) => {
            const reaction = first(a.reaction) as
              { manifestation?: CodeableConcept[]; severity?: string } | undefined;
            return [
              concept(a.code),
              concept(reaction?.manifestation?.[0]),
              reaction?.severity,
              concept(a.clinicalStatus),
            ];
          }),
        ];
      case 'immunizations':
        return [
          ['Vaccine', 'Date', 'Status'],
          each((i) => [concept(i.vaccineCode), date(i.occurrenceDateTime), text(i.status)]),
        ];
      case 'medications':
        return [
          ['Medication', 'Directions', 'Start Date', 'End Date'],
          each((m) => {
            const validity = (
              m.dispenseRequest as { validityPeriod?: { start?: string; end?: string } } | undefined
            )?.validityPeriod;
            const dosage = first(m.dosageInstruction) as { text?: string } | undefined;
            return [
              concept(m.medicationCodeableConcept),
              dosage?.text,
              date(validity?.start),
              date(validity?.end),
            ];
          }),
        ];
      case 'problems':
      case 'healthConcerns':
        return [
          [key === 'problems' ? 'Problem' : 'Concern', 'Start Date', 'Status'],
          each((p) => [concept(p.code), date(p.onsetDateTime), concept(p.clinicalStatus)]),
        ];
      case 'results':
      case 'socialHistory':
      case 'vitalSigns':
      case 'functionalStatus': {
        const rows: Row[] = [];
        for (const resource of entries) {
          this.resultRows(rows, resource, new Set());
        }
        return [['Name', 'Result', 'Date'], rows];
      }
      case 'procedures':
        return [
          ['Procedure', 'Date', 'Target Site', 'Status'],
          each((p) => [
            concept(p.code),
            date(p.performedDateTime),
            concept(first(p.bodySite)),
            text(p.status),
          ]),
        ];
      case 'encounters':
        return [
          ['Encounter', 'Date', 'Type', 'Status'],
          each((e) => [
            concept(first(e.type)),
            date((e.period as { start?: string } | undefined)?.start),
            concept(first(e.reasonCode)),
            text(e.status),
          ]),
        ];
      case 'devices':
        return [
          ['Device', 'Status'],
          each((d) => {
            const device = this.resolve(d.device as Reference | undefined) as
              { type?: CodeableConcept } | undefined;
            return [concept(device?.type), text(d.status)];
          }),
        ];
      case 'assessments':
      case 'notes':
        return [[key === 'notes' ? 'Note' : 'Summary', 'Date'], each((c) => [text(c.summary), date(c.date)])];
      case 'plan':
      case 'referral': {
        const rows: Row[] = [];
        for (const resource of entries) {
          this.planRows(rows, resource);
        }
        return [['Planned Care', 'Start Date'], rows];
      }
      case 'goals':
        return [['Goal', 'Date'], each((g) => [concept(g.description), date(g.startDate)])];
      case 'insurance':
        return [['Coverage', 'Status', 'Type'], each((a) => [text(a.name), text(a.status), concept(a.type)])];
    }
  }

  /** A result row per report or observation, then one per member it holds (never twice, even in a cycle). */
  private resultRows(rows: Row[], resource: Resource | undefined, seen: Set<Resource>): void {
    if (!resource || seen.has(resource)) {
      return;
    }
    seen.add(resource);
    if (resource.resourceType === 'DiagnosticReport') {
      const report = resource as DiagnosticReport;
      rows.push([formatConcept(report.code), undefined, report.effectiveDateTime?.slice(0, 10)]);
      for (const result of report.result ?? []) {
        this.resultRows(rows, this.resolve(result), seen);
      }
    } else if (resource.resourceType === 'Observation') {
      const observation = resource as Observation;
      rows.push([
        formatConcept(observation.code),
        formatObservationValue(observation),
        observation.effectiveDateTime?.slice(0, 10),
      ]);
      for (const member of observation.hasMember ?? []) {
        this.resultRows(rows, this.resolve(member), seen);
      }
    }
  }

  private planRows(rows: Row[], resource: Resource): void {
    const plan = resource as unknown as {
      category?: CodeableConcept[];
      period?: { start?: string };
      activity?: { reference?: Reference }[];
      description?: CodeableConcept;
      target?: { dueDate?: string }[];
      code?: CodeableConcept;
      authoredOn?: string;
    };
    if (resource.resourceType === 'CarePlan') {
      rows.push([formatConcept(plan.category?.[0]), plan.period?.start?.slice(0, 10)]);
      for (const activity of plan.activity ?? []) {
        const request = this.resolve(activity.reference) as typeof plan | undefined;
        if (request && (request as Resource).resourceType === 'ServiceRequest') {
          rows.push([formatConcept(request.code), request.authoredOn?.slice(0, 10)]);
        }
      }
    } else if (resource.resourceType === 'Goal') {
      rows.push([formatConcept(plan.description), plan.target?.[0]?.dueDate]);
    } else if (resource.resourceType === 'ServiceRequest') {
      rows.push([formatConcept(plan.code), plan.authoredOn?.slice(0, 10)]);
    }
  }

  private resolve(reference: Reference | undefined): Resource | undefined {
    return reference?.reference ? this.byId.get(reference.reference) : undefined;
  }
}

/**
 * Resources shown inside another's row, not as entries of their own (Medplum's rule): members of an
 * Observation, results of a DiagnosticReport, a CarePlan's activities, an Encounter's diagnoses, a
 * Condition's evidence and an Account's coverages.
 */
function nestedReferences(resources: Resource[]): Set<string> {
  const nested = new Set<string>();
  const add = (reference: Reference | undefined) => {
    if (reference?.reference) nested.add(reference.reference);
  };
  for (const resource of resources) {
    const r = resource as unknown as {
      hasMember?: Reference[];
      result?: Reference[];
      activity?: { reference?: Reference }[];
      diagnosis?: { condition?: Reference }[];
      evidence?: { detail?: Reference[] }[];
      coverage?: { coverage?: Reference }[];
    };
    switch (resource.resourceType) {
      case 'Observation':
        r.hasMember?.forEach(add);
        break;
      case 'DiagnosticReport':
        r.result?.forEach(add);
        break;
      case 'CarePlan':
        r.activity?.forEach((activity) => add(activity.reference));
        break;
      case 'Encounter':
        r.diagnosis?.forEach((diagnosis) => add(diagnosis.condition));
        break;
      case 'Condition':
        r.evidence?.forEach((evidence) => evidence.detail?.forEach(add));
        break;
      case 'Account':
        r.coverage?.forEach((coverage) => add(coverage.coverage));
        break;
    }
  }
  return nested;
}

function sectionOf(resource: Resource): SectionKey | undefined {
  const firstCode = (concept: CodeableConcept | undefined) => concept?.coding?.[0]?.code;
  const codeIn = (concepts: CodeableConcept[] | undefined, system: string) =>
    concepts?.flatMap((concept) => concept.coding ?? []).find((coding) => coding.system === system)?.code;
  switch (resource.resourceType) {
    case 'Account':
      return 'insurance';
    case 'AllergyIntolerance':
      return 'allergies';
    case 'CarePlan':
      return 'plan';
    case 'DeviceUseStatement':
      return 'devices';
    case 'DiagnosticReport':
      return 'results';
    case 'Encounter':
      return 'encounters';
    case 'Goal':
      return 'goals';
    case 'Immunization':
      return 'immunizations';
    case 'MedicationRequest':
      return 'medications';
    case 'Procedure':
      return 'procedures';
    case 'ClinicalImpression':
      return firstCode((resource as { code?: CodeableConcept }).code) === NOTE_DOCUMENT
        ? 'notes'
        : 'assessments';
    case 'Condition':
      return codeIn((resource as Condition).category, LOINC) === HEALTH_CONCERNS
        ? 'healthConcerns'
        : 'problems';
    case 'ServiceRequest':
      return firstCode((resource as { code?: CodeableConcept }).code) === REFERRAL_TO_HOSPITAL
        ? 'referral'
        : 'plan';
    case 'Observation': {
      const observation = resource as Observation;
      switch (codeIn(observation.category, OBSERVATION_CATEGORY)) {
        case 'social-history':
          return 'socialHistory';
        case 'survey':
          return firstCode(observation.code) === 'd5' ? 'functionalStatus' : 'socialHistory';
        case 'vital-signs':
          return 'vitalSigns';
        default:
          return 'results';
      }
    }
    // Coverage and RelatedPerson are in the document (as in Medplum) but in no section.
    default:
      return undefined;
  }
}

function formatConcept(concept: CodeableConcept | undefined): string | undefined {
  if (!concept) return undefined;
  if (concept.text) return concept.text;
  const coding = concept.coding?.find((c) => c.display) ?? concept.coding?.[0];
  return coding?.display ?? coding?.code;
}

function formatQuantity(
  quantity: { value?: number; unit?: string; code?: string } | undefined,
): string | undefined {
  if (quantity?.value === undefined) return undefined;
  const unit = quantity.unit ?? quantity.code;
  return unit ? `${quantity.value} ${unit}` : String(quantity.value);
}

function formatObservationValue(observation: Observation): string | undefined {
  const own = (value: Observation | NonNullable<Observation['component']>[number]): string | undefined =>
    formatQuantity(value.valueQuantity) ??
    formatConcept(value.valueCodeableConcept) ??
    value.valueString ??
    (value.valueBoolean === undefined ? undefined : String(value.valueBoolean)) ??
    (value.valueInteger === undefined ? undefined : String(value.valueInteger));
  const components = (observation.component ?? [])
    .map((component) => own(component))
    .filter((value): value is string => value !== undefined);
  return own(observation) ?? (components.length > 0 ? components.join(' / ') : undefined);
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}
