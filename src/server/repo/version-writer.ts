// Stores new versions: the history rows, the current rows and their search index rows
// in one statement, for one resource or many (a transaction Bundle's PUTs). One statement keeps a
// single write atomic without an explicit transaction, and a bulk write to a few round trips.
import type { Meta, Reference, Resource } from '@medplum/fhirtypes';
import type { Queryable } from '../db';
import { indexWriteCtes } from '../search/index-writer';
import type { ResourceKey } from '../search/index-writer';
import { indexedResources } from '../search/stored-index-rows';

export function compartmentStrings(resource: Resource): string[] {
  return (resource.meta?.compartment ?? [])
    .map((ref: Reference) => ref.reference)
    .filter((ref): ref is string => !!ref);
}

function versionRecord(resource: Resource) {
  const meta = resource.meta as Meta & { versionId: string; lastUpdated: string };
  return {
    resource_type: resource.resourceType,
    id: resource.id as string,
    version_id: meta.versionId,
    content: resource,
    last_updated: meta.lastUpdated,
    project: meta.project ?? null,
    compartments: compartmentStrings(resource),
  };
}

const UPSERT = `ON CONFLICT (resource_type, id) DO UPDATE SET
  version_id = EXCLUDED.version_id, content = EXCLUDED.content, last_updated = EXCLUDED.last_updated,
  deleted = false, project = EXCLUDED.project, compartments = EXCLUDED.compartments, seq = EXCLUDED.seq`;

/**
 * Writes prepared versions (meta.versionId and lastUpdated set, ids distinct). `replaced` are those
 * with a previous version, whose index rows go. 'insert' fails on an existing id; 'upsert' replaces it.
 */
export async function writeVersions(
  tx: Queryable,
  resources: readonly Resource[],
  replaced: readonly ResourceKey[],
  mode: 'insert' | 'upsert',
  /** A caller's write: most index rows one resource may have (RepositorySettings.maxIndexValues). */
  maxIndexValues?: number,
): Promise<void> {
  const index = indexWriteCtes(indexedResources(resources, maxIndexValues), replaced, 2);
  await tx.query(
    `WITH v AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(resource_type text, id text, version_id uuid,
         content jsonb, last_updated timestamptz, project text, compartments text[])),
     h AS (
       INSERT INTO resource_history (version_id, resource_type, id, content, last_updated, deleted)
       SELECT version_id, resource_type, id, content, last_updated, false FROM v
       RETURNING seq, resource_type, id)
     ${index.ctes.map((cte) => `, ${cte}`).join('')}
     INSERT INTO resource (resource_type, id, version_id, content, last_updated, deleted, project, compartments, seq)
     SELECT v.resource_type, v.id, v.version_id, v.content, v.last_updated, false, v.project, v.compartments, h.seq
     FROM v JOIN h ON h.resource_type = v.resource_type AND h.id = v.id
     ${mode === 'upsert' ? UPSERT : ''}`,
    [JSON.stringify(resources.map(versionRecord)), ...index.params],
  );
}
