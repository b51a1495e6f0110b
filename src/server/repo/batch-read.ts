// Reads many resources by type and id in ONE statement, with the same access control as
// Repository.readResource (GraphQL resolves references through a per-request DataLoader).
// Like a single read it answers from the shared resource cache when it holds the current version
// (PGlite only) and fills it with what it read, so only the misses reach SQL.
// What the caller may not see is simply absent, exactly like a missing resource: the answer never
// tells the two apart. Kept beside the Repository (not in it) so the read path stays additive.
import type { Resource } from '@medplum/fhirtypes';
import { isResourceType } from '../../fhir';
import type { Database } from '../db';
import { typeRights } from '../access/access-control';
import type { RepositoryContext } from '../access/context';
import { entryFor, redactFor } from './policy-match';
import { resourceCacheFor, toResourceJson } from './resource-cache';

export interface ResourceKey {
  resourceType: string;
  id: string;
}

interface BatchRow {
  resource_type: string;
  id: string;
  content: Resource;
  project: string | null;
  compartments: string[];
}

/** `Type/id` of a key, the map key of readResourcesBatch's answer. */
export function resourceKeyString(key: ResourceKey): string {
  return `${key.resourceType}/${key.id}`;
}

/**
 * The live, visible resources among `keys`, keyed by 'Type/id'. Unknown types, types the caller
 * may not read, deleted, missing and invisible resources are left out. One SQL statement at most.
 */
export async function readResourcesBatch(
  db: Database,
  context: RepositoryContext,
  keys: readonly ResourceKey[],
): Promise<Map<string, Resource>> {
  const wanted = new Map<string, ResourceKey>();
  for (const key of keys) {
    if (isResourceType(key.resourceType) && typeRights(context.access, key.resourceType).readById) {
      wanted.set(resourceKeyString(key), key);
    }
  }
  const found = new Map<string, Resource>();
  const cache = resourceCacheFor(db);
  for (const key of [...wanted.keys()]) {
    const cached = cache?.getJson(key);
    if (cached) {
      wanted.delete(key);
      const resource = JSON.parse(cached.json) as Resource;
      const row = { project: cached.project ?? null, compartments: [...cached.compartments] };
      if (entryFor(context, resource, 'read', row)) {
        found.set(key, redactFor(context, resource));
      }
    }
  }
  if (wanted.size === 0) {
    return found;
  }
  const generation = cache?.startRead() ?? 0;
  const types = [...wanted.values()].map((key) => key.resourceType);
  const ids = [...wanted.values()].map((key) => key.id);
  // As Repository.readResource: the rows by key, then the caller's policy on each (compartments
  // from the row, criteria on the content), hidden fields removed.
  const { rows } = await db.query<BatchRow>(
    `SELECT r.resource_type, r.id, r.content, r.project, r.compartments
     FROM unnest($1::text[], $2::text[]) AS k(resource_type, id)
     JOIN resource r ON r.resource_type = k.resource_type AND r.id = k.id
     WHERE NOT r.deleted`,
    [types, ids],
  );
  for (const row of rows) {
    cache?.setJson(`${row.resource_type}/${row.id}`, toResourceJson(row.content, row), generation);
    if (entryFor(context, row.content, 'read', row)) {
      found.set(`${row.resource_type}/${row.id}`, redactFor(context, row.content));
    }
  }
  return found;
}
