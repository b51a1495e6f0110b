// The FHIR RESTful interactions, each once: the REST routes and the batch/transaction entries
// both call these, so a Bundle entry behaves exactly like the same request over HTTP.
import type { Bundle, OperationOutcome, Parameters, Resource } from '@medplum/fhirtypes';
import type { Operation } from 'fast-json-patch';
import { allOk, badRequest, isResourceType, OperationOutcomeError } from '../../fhir';
import { BulkWriteError } from '../repo';
import type { Repository, WriteResult } from '../repo';
import type { SearchQuery, SearchRequest } from '../../fhir/search';
import { searchsetBundle } from '../search/bundle';
import type { SearchValidationOptions } from '../search/request-validation';
import { validateSearchQuery } from '../search/request-validation';
import { historyBundle } from './bundles';
import type { QueryParams } from './paging';
import { parsePaging } from './paging';

export interface FhirResult {
  status: number;
  body: Resource;
  /** The body is a stored resource version: send ETag and Last-Modified. */
  versioned?: boolean;
  /** Send a Location header pointing at this version (create, and update that created). */
  location?: boolean;
}

/** An unknown type in the URL names an endpoint that does not exist: 404 (in a body it is a 400). */
export function checkUrlResourceType(resourceType: string): void {
  if (!isResourceType(resourceType)) {
    throw new OperationOutcomeError({
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'not-found',
          details: { text: `Unknown resource type '${resourceType}'` },
        },
      ],
    });
  }
}

export function requireResourceBody(body: unknown, resourceType: string): Resource {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OperationOutcomeError(badRequest('The request body must be a JSON object (a FHIR resource)'));
  }
  const bodyType = (body as { resourceType?: unknown }).resourceType;
  if (bodyType === undefined) {
    throw new OperationOutcomeError(badRequest('Missing resourceType', 'resourceType'));
  }
  if (bodyType !== resourceType) {
    throw new OperationOutcomeError(
      badRequest(
        `Resource type '${String(bodyType)}' does not match the URL's type '${resourceType}'`,
        'resourceType',
      ),
    );
  }
  return body as Resource;
}

export async function readInteraction(repo: Repository, type: string, id: string): Promise<FhirResult> {
  checkUrlResourceType(type);
  return { status: 200, body: await repo.readResource(type, id), versioned: true };
}

export async function vreadInteraction(
  repo: Repository,
  type: string,
  id: string,
  versionId: string,
): Promise<FhirResult> {
  checkUrlResourceType(type);
  return { status: 200, body: await repo.readVersion(type, id, versionId), versioned: true };
}

export async function createInteraction(
  repo: Repository,
  type: string,
  body: unknown,
  ifNoneExist?: string,
): Promise<FhirResult> {
  checkUrlResourceType(type);
  const resource = requireResourceBody(body, type);
  if (ifNoneExist) {
    const result = await repo.conditionalCreate(resource, ifNoneExist);
    return {
      status: result.created ? 201 : 200,
      body: result.resource,
      versioned: true,
      location: result.created,
    };
  }
  return { status: 201, body: await repo.createResource(resource), versioned: true, location: true };
}

export interface UpdateRequest {
  type: string;
  id: string;
  body: unknown;
  ifMatch?: string;
}

/** The resource a PUT carries, checked against the URL's type and id. */
function checkUpdateBody({ type, id, body }: UpdateRequest): Resource {
  checkUrlResourceType(type);
  const resource = requireResourceBody(body, type);
  if (resource.id === undefined) {
    throw new OperationOutcomeError(
      badRequest(`Missing id: the body of an update must carry id '${id}'`, `${type}.id`),
    );
  }
  if (resource.id !== id) {
    throw new OperationOutcomeError(
      badRequest(`Resource id '${String(resource.id)}' does not match the URL's id '${id}'`, `${type}.id`),
    );
  }
  return resource;
}

function updateResult(result: WriteResult<Resource>): FhirResult {
  return {
    status: result.created ? 201 : 200,
    body: result.resource,
    versioned: true,
    location: result.created,
  };
}

export async function updateInteraction(
  repo: Repository,
  type: string,
  id: string,
  body: unknown,
  ifMatch?: string,
): Promise<FhirResult> {
  const resource = checkUpdateBody({ type, id, body });
  return updateResult(await repo.updateResource(resource, { ifMatch }));
}

/**
 * Several PUTs in one go (a transaction Bundle's): each answers as updateInteraction would, and a
 * refusal is a BulkWriteError naming the position of the request refused.
 */
export async function updateManyInteraction(
  repo: Repository,
  requests: readonly UpdateRequest[],
): Promise<FhirResult[]> {
  const updates = requests.map((request, index) => {
    try {
      return { resource: checkUpdateBody(request), ifMatch: request.ifMatch };
    } catch (err) {
      throw new BulkWriteError(index, err);
    }
  });
  return (await repo.updateResources(updates)).map(updateResult);
}

export async function patchInteraction(
  repo: Repository,
  type: string,
  id: string,
  patch: readonly Operation[],
  ifMatch?: string,
): Promise<FhirResult> {
  checkUrlResourceType(type);
  return { status: 200, body: await repo.patchResource(type, id, patch, { ifMatch }), versioned: true };
}

export async function deleteInteraction(
  repo: Repository,
  type: string,
  id: string,
  ifMatch?: string,
): Promise<FhirResult> {
  checkUrlResourceType(type);
  await repo.deleteResource(type, id, { ifMatch });
  return { status: 200, body: allOk };
}

/**
 * Search: the query checked at the edge (400 naming the parameter; `lenient` drops
 * unknown ones), run by the engine, answered as a searchset Bundle. `_summary=count` asks the
 * engine for the total only.
 */
export async function searchInteraction(
  repo: Repository,
  fhirBase: string,
  type: string,
  query: SearchQuery,
  options: SearchValidationOptions = {},
): Promise<FhirResult> {
  checkUrlResourceType(type);
  const request = validateSearchQuery(type, query, options);
  const engineRequest: SearchRequest =
    request.summary === 'count' ? { ...request, count: 0, offset: 0, total: 'accurate' } : request;
  const result = await repo.search(engineRequest);
  return { status: 200, body: searchsetBundle({ fhirBase, request, result }) };
}

export async function historyInteraction(
  repo: Repository,
  fhirBase: string,
  type: string,
  id: string | undefined,
  query: QueryParams,
): Promise<FhirResult> {
  checkUrlResourceType(type);
  const page = parsePaging(query, '_history');
  if (id === undefined) {
    const result = await repo.readTypeHistory(type, page);
    return { status: 200, body: historyBundle(fhirBase, `${fhirBase}${type}/_history`, page, result) };
  }
  const result = await repo.readHistory(type, id, page);
  return { status: 200, body: historyBundle(fhirBase, `${fhirBase}${type}/${id}/_history`, page, result) };
}

/**
 * $validate: 200 with 'All OK' when valid, 400 with every issue when not (as Medplum answers, so
 * clients treat an invalid resource as an error). The body is the resource, or a Parameters with a
 * `resource` parameter.
 */
export async function validateInteraction(
  repo: Repository,
  type: string,
  body: unknown,
): Promise<FhirResult> {
  checkUrlResourceType(type);
  let candidate = body;
  if ((body as Parameters | null)?.resourceType === 'Parameters' && type !== 'Parameters') {
    candidate = (body as Parameters).parameter?.find((p) => p.name === 'resource')?.resource;
    if (!candidate) {
      throw new OperationOutcomeError(
        badRequest("Parameters for $validate must have a 'resource' parameter"),
      );
    }
  }
  const resource = requireResourceBody(candidate, type);
  const outcome: OperationOutcome = repo.validate(resource);
  return { status: outcome === allOk ? 200 : 400, body: outcome };
}

export function isBundle(value: unknown): value is Bundle {
  return (value as Bundle | null)?.resourceType === 'Bundle';
}
