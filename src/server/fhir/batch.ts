// Batch and transaction Bundles (FHIR R4 http.html#transaction). A batch runs each entry on its
// own and reports each entry's status; a transaction runs every entry in one database transaction,
// so one failing entry writes nothing, and rewrites `urn:uuid:` references to the ids it assigns.
import crypto from 'node:crypto';
import type {
  Binary,
  Bundle,
  BundleEntry,
  BundleEntryRequest,
  OperationOutcome,
  Resource,
} from '@medplum/fhirtypes';
import { badRequest, getStatus, normalizeError, OperationOutcomeError } from '../../fhir';
import type { Repository } from '../repo';
import { BulkWriteError, parseJsonPatch } from '../repo';
import { etagOf, parseVersionTag, versionUrl } from './http-headers';
import type { FhirResult, UpdateRequest } from './interactions';
import {
  checkUrlResourceType,
  createInteraction,
  deleteInteraction,
  historyInteraction,
  patchInteraction,
  readInteraction,
  searchInteraction,
  updateInteraction,
  updateManyInteraction,
  vreadInteraction,
} from './interactions';
import { JSON_PATCH } from '../media-types';
import type { QueryParams } from './paging';

type Method = BundleEntryRequest['method'];

/** FHIR's processing order for a transaction: deletes, creates, updates, then reads. */
const TRANSACTION_ORDER: Record<Method, number> = { DELETE: 0, POST: 1, PUT: 2, PATCH: 2, GET: 3, HEAD: 3 };

export interface BatchOptions {
  /** Most entries one Bundle may hold (MAX_BATCH_ENTRIES); unbounded for the server's own seeds. */
  maxEntries?: number;
}

/** Entries run between two turns of the event loop, so other requests (and /healthcheck) get a turn. */
const ENTRIES_PER_SLICE = 25;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export async function processBatch(
  repo: Repository,
  fhirBase: string,
  body: unknown,
  options: BatchOptions = {},
): Promise<Bundle> {
  const bundle = checkBatchBundle(body);
  const entries = bundle.entry ?? [];
  if (options.maxEntries !== undefined && entries.length > options.maxEntries) {
    throw new OperationOutcomeError(
      badRequest(
        `Bundle has ${entries.length} entries; a ${bundle.type} may hold at most ${options.maxEntries}`,
        'Bundle.entry',
      ),
    );
  }
  if (bundle.type === 'batch') {
    const responses: BundleEntry[] = [];
    for (const entry of entries) {
      if (responses.length % ENTRIES_PER_SLICE === ENTRIES_PER_SLICE - 1) {
        await nextTurn();
      }
      try {
        responses.push(toResponseEntry(fhirBase, await executeEntry(repo, fhirBase, entry)));
      } catch (err) {
        const outcome = normalizeError(err);
        responses.push({ response: { status: String(getStatus(outcome)), outcome } });
      }
    }
    return { resourceType: 'Bundle', type: 'batch-response', entry: responses };
  }
  const responses = await repo.withTransaction(async (txRepo) => {
    const prepared = await prepareTransaction(txRepo, entries);
    const results: BundleEntry[] = new Array(entries.length);
    const order = prepared.map((_, index) => index);
    order.sort(
      (a, b) =>
        TRANSACTION_ORDER[prepared[a].entry.request.method] -
        TRANSACTION_ORDER[prepared[b].entry.request.method],
    );
    for (let next = 0; next < order.length;) {
      // Consecutive plain PUTs are written together: one lock query and one statement for all.
      const puts: { index: number; request: UpdateRequest }[] = [];
      while (next < order.length) {
        const request = plainPut(fhirBase, prepared[order[next]]);
        if (!request) break;
        puts.push({ index: order[next], request });
        next++;
      }
      if (puts.length > 0) {
        try {
          const written = await updateManyInteraction(
            txRepo,
            puts.map((put) => put.request),
          );
          written.forEach((result, i) => (results[puts[i].index] = toResponseEntry(fhirBase, result)));
        } catch (err) {
          if (err instanceof BulkWriteError) {
            throw new OperationOutcomeError(
              atEntry(normalizeError(err.cause), puts[err.index].index),
              err.cause,
            );
          }
          throw err;
        }
        continue;
      }
      if (next % ENTRIES_PER_SLICE === ENTRIES_PER_SLICE - 1) {
        await nextTurn();
      }
      const index = order[next++];
      const { entry, assignedId, existing } = prepared[index];
      try {
        const result: FhirResult = existing
          ? { status: 200, body: existing, versioned: true }
          : assignedId
            ? await createWithId(txRepo, entry, assignedId)
            : await executeEntry(txRepo, fhirBase, entry);
        results[index] = toResponseEntry(fhirBase, result);
      } catch (err) {
        throw new OperationOutcomeError(atEntry(normalizeError(err), index), err);
      }
    }
    return results;
  });
  return { resourceType: 'Bundle', type: 'transaction-response', entry: responses };
}

interface CheckedEntry extends BundleEntry {
  request: BundleEntryRequest;
}

interface PreparedEntry {
  entry: CheckedEntry;
  /** The id a POST with a urn:uuid fullUrl gets (so references to it can be rewritten first). */
  assignedId?: string;
  /** What a conditional create matched instead of creating. */
  existing?: Resource;
}

function checkBatchBundle(body: unknown): Bundle & { entry?: CheckedEntry[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OperationOutcomeError(badRequest('The request body must be a Bundle'));
  }
  const bundle = body as Bundle;
  if (bundle.resourceType !== 'Bundle') {
    throw new OperationOutcomeError(
      badRequest(
        `Expected a Bundle of type batch or transaction, got '${String(bundle.resourceType)}'`,
        'resourceType',
      ),
    );
  }
  if (bundle.type !== 'batch' && bundle.type !== 'transaction') {
    throw new OperationOutcomeError(
      badRequest(`Bundle type must be batch or transaction, got '${String(bundle.type)}'`, 'Bundle.type'),
    );
  }
  if (bundle.entry !== undefined && !Array.isArray(bundle.entry)) {
    throw new OperationOutcomeError(badRequest('Bundle.entry must be an array', 'Bundle.entry'));
  }
  (bundle.entry ?? []).forEach((entry, index) => {
    const request = (entry as BundleEntry | null)?.request;
    if (!request || typeof request !== 'object') {
      throw new OperationOutcomeError(badRequest('Missing request', `Bundle.entry[${index}].request`));
    }
    if (!(request.method in TRANSACTION_ORDER) || request.method === 'HEAD') {
      throw new OperationOutcomeError(
        badRequest(`Unsupported method '${String(request.method)}'`, `Bundle.entry[${index}].request.method`),
      );
    }
    if (typeof request.url !== 'string' || !request.url) {
      throw new OperationOutcomeError(
        badRequest('Missing request url', `Bundle.entry[${index}].request.url`),
      );
    }
  });
  return bundle as Bundle & { entry?: CheckedEntry[] };
}

/** Assigns ids to created resources and rewrites every reference to their urn:uuid fullUrls. */
async function prepareTransaction(repo: Repository, entries: CheckedEntry[]): Promise<PreparedEntry[]> {
  const prepared: PreparedEntry[] = entries.map((entry) => ({ entry }));
  const rewrites = new Map<string, string>();
  for (const [index, item] of prepared.entries()) {
    const { entry } = item;
    if (entry.request.method !== 'POST' || !entry.fullUrl?.startsWith('urn:uuid:')) {
      continue;
    }
    const [type] = splitUrl(entry.request.url).segments;
    try {
      checkUrlResourceType(type);
      if (entry.request.ifNoneExist) {
        item.existing = await repo.findMatching(type, entry.request.ifNoneExist);
      }
    } catch (err) {
      throw new OperationOutcomeError(atEntry(normalizeError(err), index), err);
    }
    if (item.existing) {
      rewrites.set(entry.fullUrl, `${type}/${item.existing.id}`);
    } else {
      item.assignedId = crypto.randomUUID();
      rewrites.set(entry.fullUrl, `${type}/${item.assignedId}`);
    }
  }
  if (rewrites.size > 0) {
    for (const item of prepared) {
      if (item.entry.resource) {
        item.entry = { ...item.entry, resource: rewriteReferences(item.entry.resource, rewrites) };
      }
      item.entry.request = {
        ...item.entry.request,
        url: rewrites.get(item.entry.request.url) ?? item.entry.request.url,
      };
    }
  }
  return prepared;
}

/** A deep copy with every `reference` that names a rewritten fullUrl replaced by 'Type/id'. */
function rewriteReferences<T>(value: T, rewrites: Map<string, string>): T {
  if (Array.isArray(value)) {
    return value.map((item: unknown) => rewriteReferences(item, rewrites)) as T;
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    copy[key] =
      key === 'reference' && typeof child === 'string' && rewrites.has(child)
        ? rewrites.get(child)
        : rewriteReferences(child, rewrites);
  }
  return copy as T;
}

async function createWithId(repo: Repository, entry: CheckedEntry, id: string): Promise<FhirResult> {
  const [type, ...rest] = splitUrl(entry.request.url).segments;
  if (rest.length > 0) {
    throw new OperationOutcomeError(
      badRequest(`POST url must be a resource type, got '${entry.request.url}'`),
    );
  }
  const resource = entry.resource;
  if (!resource) {
    throw new OperationOutcomeError(badRequest('Missing resource'));
  }
  if (resource.resourceType !== type) {
    throw new OperationOutcomeError(
      badRequest(`Resource type '${String(resource.resourceType)}' does not match the URL's type '${type}'`),
    );
  }
  return {
    status: 201,
    body: await repo.createResource(resource, { assignedId: id }),
    versioned: true,
    location: true,
  };
}

/** An update by id (no condition), which a transaction can write together with its neighbours. */
function plainPut(
  fhirBase: string,
  { entry, assignedId, existing }: PreparedEntry,
): UpdateRequest | undefined {
  if (entry.request.method !== 'PUT' || assignedId || existing) {
    return undefined;
  }
  const url = entry.request.url.startsWith(fhirBase)
    ? entry.request.url.slice(fhirBase.length)
    : entry.request.url;
  const { segments, query } = splitUrl(url);
  if (segments.length !== 2 || Object.keys(query).length > 0) {
    return undefined;
  }
  const [type, id] = segments;
  return { type, id, body: entry.resource, ifMatch: parseVersionTag(entry.request.ifMatch) };
}

function splitUrl(url: string): { segments: string[]; query: QueryParams } {
  const [path, search = ''] = url.replace(/^\/+/, '').split('?');
  const query: QueryParams = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const previous = query[name];
    query[name] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return { segments: path.split('/').filter(Boolean), query };
}

/** Runs one entry as the same interaction the REST API would run for that request. */
async function executeEntry(repo: Repository, fhirBase: string, entry: CheckedEntry): Promise<FhirResult> {
  const { method } = entry.request;
  const url = entry.request.url.startsWith(fhirBase)
    ? entry.request.url.slice(fhirBase.length)
    : entry.request.url;
  const { segments, query } = splitUrl(url);
  const [type, id, history, versionId] = segments;
  const ifMatch = parseVersionTag(entry.request.ifMatch);
  const invalid = (): never => {
    throw new OperationOutcomeError(badRequest(`Unsupported request: ${method} ${entry.request.url}`));
  };
  if (!type || segments.length > 4 || (history !== undefined && history !== '_history')) {
    return invalid();
  }
  if (method !== 'GET' && Object.keys(query).length > 0) {
    throw new OperationOutcomeError(
      badRequest(`Conditional ${method} is not supported: ${entry.request.url}`),
    );
  }
  switch (method) {
    case 'GET':
      if (segments.length === 1) {
        return searchInteraction(repo, fhirBase, type, query);
      }
      if (segments.length === 2) {
        return id === '_history'
          ? historyInteraction(repo, fhirBase, type, undefined, query)
          : readInteraction(repo, type, id);
      }
      if (segments.length === 3) {
        return historyInteraction(repo, fhirBase, type, id, query);
      }
      return vreadInteraction(repo, type, id, versionId);
    case 'POST':
      return segments.length === 1
        ? createInteraction(repo, type, entry.resource, entry.request.ifNoneExist)
        : invalid();
    case 'PUT':
      return segments.length === 2 ? updateInteraction(repo, type, id, entry.resource, ifMatch) : invalid();
    case 'PATCH':
      return segments.length === 2
        ? patchInteraction(repo, type, id, patchFromBinary(entry.resource), ifMatch)
        : invalid();
    case 'DELETE':
      return segments.length === 2 ? deleteInteraction(repo, type, id, ifMatch) : invalid();
    default:
      return invalid();
  }
}

/** In a Bundle a JSON Patch travels as a Binary of type application/json-patch+json (base64 data). */
function patchFromBinary(resource: Resource | undefined) {
  const binary = resource as Binary | undefined;
  if (binary?.resourceType !== 'Binary' || binary.contentType !== JSON_PATCH || !binary.data) {
    throw new OperationOutcomeError(
      badRequest(
        `A PATCH entry's resource must be a Binary with contentType ${JSON_PATCH} and the patch as base64 data`,
      ),
    );
  }
  let patch: unknown;
  try {
    patch = JSON.parse(Buffer.from(binary.data, 'base64').toString('utf8'));
  } catch {
    throw new OperationOutcomeError(badRequest('The PATCH entry data is not valid JSON'));
  }
  return parseJsonPatch(patch);
}

function toResponseEntry(fhirBase: string, result: FhirResult): BundleEntry {
  const isOutcome = result.body.resourceType === 'OperationOutcome' && !result.versioned;
  const entry: BundleEntry = {
    response: {
      status: String(result.status),
      location: result.location ? versionUrl(fhirBase, result.body) : undefined,
      etag: result.versioned ? etagOf(result.body) : undefined,
      lastModified: result.versioned ? result.body.meta?.lastUpdated : undefined,
      outcome: isOutcome ? (result.body as OperationOutcome) : undefined,
    },
  };
  if (!isOutcome) {
    entry.fullUrl = result.versioned ? `${fhirBase}${result.body.resourceType}/${result.body.id}` : undefined;
    entry.resource = result.body;
  }
  return entry;
}

/** The entry's outcome, each issue located at Bundle.entry[index], so the caller sees which entry failed. */
function atEntry(outcome: OperationOutcome, index: number): OperationOutcome {
  return {
    ...outcome,
    issue: (outcome.issue ?? []).map((issue) => ({
      ...issue,
      details: { ...issue.details, text: `Bundle.entry[${index}]: ${issue.details?.text ?? issue.code}` },
      expression: issue.expression?.length ? issue.expression : [`Bundle.entry[${index}]`],
    })),
  };
}
