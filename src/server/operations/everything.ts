// Patient/{id}/$everything (FHIR R4 Patient-everything; SPEC §7 readPatientEverything):
// the Patient and every resource in its compartment that the caller may read, as a searchset Bundle,
// paged with _count/_offset, optionally only what changed since _since and only some types (_type).
// The compartments column (GIN-indexed) finds the resources; the caller's visibility rules are the
// search's own (the AccessPolicy per type, search/policy-sql.ts), in SQL, so pages stay right.
import type { Bundle, BundleEntry, BundleLink, Patient, Resource } from '@medplum/fhirtypes';
import { badRequest, getPatientCompartmentParams, getResourceTypes, OperationOutcomeError } from '../../fhir';
import type { Database } from '../db';
import type { QueryParams } from '../fhir/paging';
import type { RepositoryContext } from '../repo';
import { Repository } from '../repo';
import { visibleTypesCondition } from '../search/filter-sql';
import type { FilterContext } from '../search/filter-sql';
import { SqlParams } from '../search/sql-params';
import { checkKnownParams, singleParam, wholeNumberParam } from './query-params';

// As Medplum (defaultMaxResults): one page holds a whole ordinary record.
export const EVERYTHING_DEFAULT_COUNT = 1000;
export const EVERYTHING_MAX_COUNT = 1000;
const PARAMS = ['_count', '_offset', '_since', '_type'];
// An instant or dateTime with a time zone (FHIR's _since is an instant).
const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

interface EverythingRequest {
  count: number;
  offset: number;
  since?: string;
  types?: string[];
}

let compartmentTypes: string[] | undefined;

/** Resource types that can be in a Patient compartment (the Patient CompartmentDefinition's, plus Patient). */
function patientCompartmentTypes(): string[] {
  compartmentTypes ??= getResourceTypes().filter(
    (type) => type === 'Patient' || (getPatientCompartmentParams(type)?.length ?? 0) > 0,
  );
  return compartmentTypes;
}

function parseRequest(query: QueryParams): EverythingRequest {
  checkKnownParams(query, PARAMS, '$everything');
  const since = singleParam(query, '_since');
  if (since !== undefined && (!INSTANT.test(since) || Number.isNaN(Date.parse(since)))) {
    throw new OperationOutcomeError(badRequest(`_since must be an instant, got '${since}'`, '_since'));
  }
  const typeParam = singleParam(query, '_type');
  const types = typeParam?.split(',').map((type) => type.trim());
  for (const type of types ?? []) {
    if (!patientCompartmentTypes().includes(type)) {
      throw new OperationOutcomeError(
        badRequest(`_type '${type}' is not a resource type of the Patient compartment`, '_type'),
      );
    }
  }
  return {
    count: wholeNumberParam(query, '_count', EVERYTHING_DEFAULT_COUNT, EVERYTHING_MAX_COUNT),
    offset: wholeNumberParam(query, '_offset', 0, Number.MAX_SAFE_INTEGER),
    since,
    types,
  };
}

function pageUrl(url: string, request: EverythingRequest, offset: number): string {
  const params = new URLSearchParams();
  params.set('_count', String(request.count));
  params.set('_offset', String(offset));
  if (request.since) params.set('_since', request.since);
  if (request.types) params.set('_type', request.types.join(','));
  return `${url}?${params.toString()}`;
}

/** What one read of a Patient compartment asks for: a page of some types, optionally changed since. */
export interface CompartmentRead {
  count: number;
  offset: number;
  since?: string;
  /** Resource types of the Patient compartment; all of them when absent. */
  types?: readonly string[];
}

/**
 * One page of the Patient and the resources of her compartment that the caller may read (the
 * Patient first, then in writing order), and whether more follow. A Patient the caller cannot see
 * is a 404, exactly as a read, before anything else is looked at. Shared by $everything and $summary.
 */
export async function readPatientCompartment(
  db: Database,
  context: RepositoryContext,
  patientId: string,
  request: CompartmentRead,
): Promise<{ patient: Patient; resources: Resource[]; hasMore: boolean }> {
  const patient = await new Repository(db, context).readResource<Patient>('Patient', patientId);
  const types = (request.types ?? patientCompartmentTypes()).filter((type) =>
    patientCompartmentTypes().includes(type),
  );
  const params = new SqlParams();
  const where = [`r.compartments @> ARRAY[${params.add(`Patient/${patientId}`)}::text]`, 'NOT r.deleted'];
  const patientParam = params.add(patientId);
  if (request.since) {
    where.push(`r.last_updated >= ${params.add(request.since)}::timestamptz`);
  }
  const ctx: FilterContext = { params, context, valueSets: new Map(), depth: 0 };
  where.push(...visibleTypesCondition(ctx, types, 'r'));
  const { rows } = await db.query<{ content: Resource }>(
    `SELECT r.content FROM resource r WHERE ${where.join(' AND ')}
     ORDER BY (r.resource_type = 'Patient' AND r.id = ${patientParam}) DESC, r.seq
     LIMIT ${params.add(request.count + 1)} OFFSET ${params.add(request.offset)}`,
    params.values,
  );
  return {
    patient,
    resources: rows.slice(0, request.count).map((row) => row.content),
    hasMore: rows.length > request.count,
  };
}

export async function patientEverything(
  db: Database,
  context: RepositoryContext,
  fhirBase: string,
  patientId: string,
  query: QueryParams,
): Promise<Bundle> {
  const request = parseRequest(query);
  const { resources: items, hasMore } = await readPatientCompartment(db, context, patientId, request);
  const url = `${fhirBase}Patient/${patientId}/$everything`;
  const link: BundleLink[] = [{ relation: 'self', url: pageUrl(url, request, request.offset) }];
  if (hasMore) {
    link.push({ relation: 'next', url: pageUrl(url, request, request.offset + request.count) });
  }
  if (request.offset > 0) {
    link.push({
      relation: 'previous',
      url: pageUrl(url, request, Math.max(0, request.offset - request.count)),
    });
  }
  const entry: BundleEntry[] = items.map((resource) => ({
    fullUrl: `${fhirBase}${resource.resourceType}/${resource.id}`,
    resource,
    search: { mode: 'match' },
  }));
  return { resourceType: 'Bundle', type: 'searchset', link, entry };
}
