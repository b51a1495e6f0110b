// The kick-off request of a bulk export (FHIR Bulk Data 2.0 "Bulk Data Kick-off Request"; SPEC §7
// "POST {type}/$export or {group}/$export with _type, _since, Prefer respond-async"): parameters
// from the query string or a Parameters body, checked before any job exists, so a bad request is a
// 400 OperationOutcome naming the parameter rather than a job that fails later.
import type { Group, Parameters } from '@medplum/fhirtypes';
import {
  badRequest,
  forbidden,
  getPatientCompartmentParams,
  getResourceTypes,
  isResourceType,
  OperationOutcomeError,
  validatePrimitive,
} from '../../fhir';
import { PLATFORM_TYPES, typeRights } from '../access/access-control';
import type { Repository } from '../repo';
import type { ExportLevel } from './job-store';

/** The full media type and the abbreviations Bulk Data says a server SHALL accept. */
const NDJSON_FORMATS: ReadonlySet<string> = new Set([
  'application/fhir+ndjson',
  'application/ndjson',
  'ndjson',
]);

const KNOWN_PARAMETERS: ReadonlySet<string> = new Set(['_type', '_since', '_outputFormat', 'patient']);

/** Bulk Data parameters this server does not implement: refused, never silently ignored. */
const UNSUPPORTED_PARAMETERS: ReadonlySet<string> = new Set([
  '_typeFilter',
  '_elements',
  'includeAssociatedData',
  '_until',
]);

export interface KickoffTarget {
  level: ExportLevel;
  /** Group id for Group/{id}/$export, resource type for {type}/$export. */
  target?: string;
}

export interface ExportPlan {
  level: ExportLevel;
  types: string[];
  since: string | undefined;
  patients: string[] | undefined;
}

function fail(message: string, parameter?: string): never {
  throw new OperationOutcomeError(badRequest(message, parameter));
}

/** Kick-off needs `Prefer: respond-async` (Bulk Data: "Specifies whether the response is immediate or asynchronous … SHALL be respond-async"). */
export function checkPreferAsync(prefer: string | string[] | undefined): void {
  const values = (Array.isArray(prefer) ? prefer.join(',') : (prefer ?? ''))
    .split(/[,;]/)
    .map((part) => part.trim().toLowerCase());
  if (!values.includes('respond-async')) {
    fail('$export runs asynchronously: send the header Prefer: respond-async', 'Prefer');
  }
}

/** Query parameters, overridden by a Parameters body (POST kick-off of Bulk Data 2.0). */
export function kickoffParameters(
  query: Record<string, string | string[] | undefined>,
  body: unknown,
): Map<string, string> {
  const params = new Map<string, string>();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.set(name, Array.isArray(value) ? value.join(',') : value);
  }
  const parameters = body as Parameters | undefined;
  if (parameters && typeof parameters === 'object' && parameters.resourceType === 'Parameters') {
    for (const parameter of parameters.parameter ?? []) {
      const value =
        parameter.valueString ??
        parameter.valueInstant ??
        parameter.valueCode ??
        parameter.valueReference?.reference;
      if (value !== undefined) {
        const previous = params.get(parameter.name);
        params.set(parameter.name, previous && parameter.name === 'patient' ? `${previous},${value}` : value);
      }
    }
  }
  for (const name of params.keys()) {
    if (UNSUPPORTED_PARAMETERS.has(name)) {
      fail(`$export parameter '${name}' is not supported`, name);
    }
    if (!KNOWN_PARAMETERS.has(name)) {
      fail(`Unknown $export parameter '${name}'`, name);
    }
  }
  return params;
}

/** Types exported when _type is absent: everything a member may read, or the Patient compartment's types. */
export function defaultTypes(level: ExportLevel): string[] {
  const readable = getResourceTypes().filter((type) => !PLATFORM_TYPES.has(type) && type !== 'Binary');
  if (level === 'system') {
    return readable;
  }
  return readable.filter(
    (type) => type === 'Patient' || (getPatientCompartmentParams(type)?.length ?? 0) > 0,
  );
}

function parseTypes(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const types = [...new Set(value.split(',').map((type) => type.trim()))];
  for (const type of types) {
    if (!isResourceType(type)) {
      fail(`Unknown resource type '${type}' in _type`, '_type');
    }
  }
  return types;
}

function parseSince(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (validatePrimitive('instant', value) !== undefined) {
    fail(`_since must be a FHIR instant such as 2024-01-31T12:00:00Z, got '${value}'`, '_since');
  }
  return new Date(value).toISOString();
}

/** Members of a Group that are Patients, active ones only. */
function groupPatients(group: Group): string[] {
  return (group.member ?? [])
    .filter((member) => !member.inactive)
    .map((member) => member.entity?.reference)
    .filter(
      (reference): reference is string => !!reference && /^Patient\/[A-Za-z0-9\-.]{1,64}$/.test(reference),
    );
}

/**
 * The patient parameter: each Patient must be one the caller may read. A patient naming another
 * patient is refused (403), never given an empty or partial export that looks complete.
 */
async function namedPatients(repo: Repository, value: string): Promise<string[]> {
  const references = value.split(',').map((reference) => reference.trim());
  for (const reference of references) {
    const match = /^Patient\/([A-Za-z0-9\-.]{1,64})$/.exec(reference);
    if (!match) {
      fail(`patient must list Patient/{id} references, got '${reference}'`, 'patient');
    }
    try {
      await repo.readResource('Patient', match[1]);
    } catch {
      throw new OperationOutcomeError({
        ...forbidden,
        issue: [
          {
            severity: 'error',
            code: 'forbidden',
            details: { text: `You may not export the data of ${reference}` },
            expression: ['patient'],
          },
        ],
      });
    }
  }
  return references;
}

/** Validates a kick-off and works out what the job will export. */
export async function planExport(
  repo: Repository,
  target: KickoffTarget,
  params: Map<string, string>,
): Promise<ExportPlan> {
  const format = params.get('_outputFormat');
  if (format !== undefined && !NDJSON_FORMATS.has(format)) {
    fail(`_outputFormat '${format}' is not supported: use application/fhir+ndjson`, '_outputFormat');
  }
  let types = parseTypes(params.get('_type'));
  const since = parseSince(params.get('_since'));
  const patientParam = params.get('patient');
  if (patientParam !== undefined && target.level !== 'patient' && target.level !== 'group') {
    fail('patient applies to Patient/$export and Group/{id}/$export only', 'patient');
  }
  let patients = patientParam === undefined ? undefined : await namedPatients(repo, patientParam);
  if (target.level === 'type') {
    const type = target.target as string;
    if (types && types.some((t) => t !== type)) {
      fail(`${type}/$export exports ${type} only; _type names other types`, '_type');
    }
    types = [type];
  }
  if (target.level === 'group') {
    // Read as the caller: a Group she may not see is a 404, as on a read.
    const members = groupPatients(await repo.readResource<Group>('Group', target.target as string));
    patients = patients ? patients.filter((patient) => members.includes(patient)) : members;
  }
  // Without _type: the types the caller may read at all (a patient's policy names a dozen of 150).
  const readable = (type: string) => typeRights(repo.context.access, type).read;
  return {
    level: target.level,
    types: types ?? defaultTypes(target.level).filter(readable),
    since,
    patients,
  };
}
