// The per-resource half of the AccessPolicy (access-control.ts has the rules): an entry's criteria
// decided on one resource by the same matcher as subscriptions (live/criteria-match.ts, each search
// kind's in-memory twin of its SQL), and the field rules of the entry a resource satisfies —
// hiddenFields removed from what leaves and kept from what is written, readonlyFields unchanged.
import { isDeepStrictEqual } from 'node:util';
import type { AccessPolicyResource, Resource } from '@medplum/fhirtypes';
import { satisfiedEntry, secretFields } from '../access/access-control';
import type { CriteriaMatcher, ResourcePlacement } from '../access/access-control';
import type { RepositoryContext } from '../access/context';
import type { AccessInteraction } from '../access/policy';
import type { SearchRequest } from '../../fhir/search';
import { extractIndexRows } from '../search/extract-index-rows';
import type { IndexRows } from '../search/index-rows';
import { parseCriteria } from '../live/criteria';
import { matchesCriteria } from '../live/criteria-match';
import { compartmentStrings } from './version-writer';

/** Parsed criteria by text; a criteria the matcher cannot decide is remembered as undefined. */
const parsed = new Map<string, SearchRequest | undefined>();
const MAX_PARSED = 1000;

function parsedCriteria(criteria: string): SearchRequest | undefined {
  if (parsed.has(criteria)) {
    return parsed.get(criteria);
  }
  let request: SearchRequest | undefined;
  try {
    request = parseCriteria(criteria);
  } catch {
    // Criteria that one resource cannot decide (chains, _has…) grant nothing here: refusing is safe.
    request = undefined;
  }
  if (parsed.size >= MAX_PARSED) {
    parsed.clear();
  }
  parsed.set(criteria, request);
  return request;
}

/** Index rows are extracted once per resource, and only when some entry has criteria. */
const rowsOf = new WeakMap<Resource, IndexRows>();

/** Whether a resource matches an entry's criteria, as the same search would decide (as the system). */
export const matchesPolicyCriteria: CriteriaMatcher = (criteria, resource) => {
  const request = parsedCriteria(criteria);
  if (!request || request.resourceType !== resource.resourceType) {
    return false;
  }
  return matchesCriteria(request, {
    resource,
    get rows() {
      let rows = rowsOf.get(resource);
      if (!rows) {
        rows = extractIndexRows(resource);
        rowsOf.set(resource, rows);
      }
      return rows;
    },
  });
};

/** Where a resource version lives, from its own meta (or the stored row's columns when given). */
export function placementOf(
  resource: Resource,
  row?: { project: string | null; compartments: string[] },
): ResourcePlacement {
  return {
    resourceType: resource.resourceType,
    id: resource.id ?? '',
    project: row ? row.project : resource.meta?.project,
    compartments: row ? row.compartments : compartmentStrings(resource),
  };
}

/** The entry of the caller's policy that allows `interaction` on this resource, if any. */
export function entryFor(
  context: RepositoryContext,
  resource: Resource,
  interaction: AccessInteraction,
  row?: { project: string | null; compartments: string[] },
): AccessPolicyResource | undefined {
  return satisfiedEntry(context, placementOf(resource, row), resource, interaction, matchesPolicyCriteria);
}

/** The fields never returned to this caller: secrets, and the hidden fields of the entry it reads through. */
export function fieldsHiddenFrom(
  context: RepositoryContext,
  entry: AccessPolicyResource | undefined,
  resourceType: string,
): string[] {
  if (!context.access) {
    return [];
  }
  return [...(secretFields(resourceType) ?? []), ...(entry?.hiddenFields ?? [])];
}

/**
 * The resource as this caller may receive it: without its secrets and without the hiddenFields of
 * the entry it satisfies for `read` (the same object when nothing is hidden).
 */
export function redactFor<T extends Resource>(context: RepositoryContext, resource: T): T {
  const access = context.access;
  if (!access) {
    return resource;
  }
  const entry = access.superAdmin
    ? undefined
    : (entryFor(context, resource, 'read') ?? entryFor(context, resource, 'search'));
  const fields = fieldsHiddenFrom(context, entry, resource.resourceType);
  return fields.length === 0 ? resource : withoutFields(resource, fields);
}

/** A copy without the given paths ('name', 'meta.author', 'identifier.value': through arrays too). */
export function withoutFields<T extends Resource>(resource: T, paths: readonly string[]): T {
  let copy: Record<string, unknown> | undefined;
  for (const path of paths) {
    const parts = path.split('.');
    if (!hasPath(resource, parts)) {
      continue;
    }
    copy ??= structuredClone(resource) as unknown as Record<string, unknown>;
    removePath(copy, parts);
  }
  return (copy as unknown as T | undefined) ?? resource;
}

function hasPath(value: unknown, parts: readonly string[]): boolean {
  if (Array.isArray(value)) {
    return value.some((item) => hasPath(item, parts));
  }
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const [head, ...rest] = parts;
  if (!(head in value)) {
    return false;
  }
  return rest.length === 0 || hasPath((value as Record<string, unknown>)[head], rest);
}

function removePath(value: unknown, parts: readonly string[]): void {
  if (Array.isArray(value)) {
    value.forEach((item) => removePath(item, parts));
    return;
  }
  if (typeof value !== 'object' || value === null) {
    return;
  }
  const record = value as Record<string, unknown>;
  const [head, ...rest] = parts;
  if (rest.length === 0) {
    delete record[head];
  } else {
    removePath(record[head], rest);
  }
}

/** The values at a path, through arrays (what a readonly field compares). */
function valuesAt(value: unknown, parts: readonly string[]): unknown[] {
  if (Array.isArray(value)) {
    return value.flatMap((item) => valuesAt(item, parts));
  }
  if (parts.length === 0) {
    return value === undefined ? [] : [value];
  }
  if (typeof value !== 'object' || value === null) {
    return [];
  }
  return valuesAt((value as Record<string, unknown>)[parts[0]], parts.slice(1));
}

/** The first of the entry's readonlyFields that differs between the current and the new version. */
export function changedReadonlyField(
  entry: AccessPolicyResource,
  before: Resource,
  after: Resource,
): string | undefined {
  return entry.readonlyFields?.find(
    (path) => !sameJson(valuesAt(before, path.split('.')), valuesAt(after, path.split('.'))),
  );
}

/**
 * Equal as JSON data, whatever realm built the objects: a stored version can arrive from the PGlite
 * worker thread, whose objects isDeepStrictEqual tells apart by prototype from the caller's (under jest's vm).
 */
function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
}

/**
 * The new version with the entry's hiddenFields as they are stored: a value the caller sent for
 * them is dropped, and on an update the stored one kept (a top-level field, or one under objects).
 */
export function keepHiddenFields<T extends Resource>(
  entry: AccessPolicyResource,
  after: T,
  before: Resource | undefined,
): T {
  const hidden = entry.hiddenFields ?? [];
  if (hidden.length === 0) {
    return after;
  }
  const result = withoutFields(after, hidden);
  const target = (result === after ? structuredClone(after) : result) as unknown as Record<string, unknown>;
  for (const path of hidden) {
    restorePath(target, before as unknown as Record<string, unknown> | undefined, path.split('.'));
  }
  return target as unknown as T;
}

function restorePath(
  target: Record<string, unknown>,
  source: Record<string, unknown> | undefined,
  parts: readonly string[],
): void {
  const [head, ...rest] = parts;
  const value = source?.[head];
  if (value === undefined) {
    return;
  }
  if (rest.length === 0) {
    target[head] = structuredClone(value);
    return;
  }
  const next = target[head];
  // Inside arrays the elements of two versions cannot be paired: the hidden value is only dropped.
  if (
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof next === 'object' &&
    next &&
    !Array.isArray(next)
  ) {
    restorePath(next as Record<string, unknown>, value as Record<string, unknown>, rest);
  }
}
