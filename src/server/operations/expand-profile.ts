// StructureDefinition/$expand-profile?url=… (Medplum's operation, SPEC §7
// requestProfileSchema): a searchset Bundle with the profile's StructureDefinition and, recursively
// (at most 10 levels, each once), the StructureDefinitions its elements' types name in `profile`
// (extensions, constrained data types). Profiles come from the caller's stored StructureDefinitions
// first, then the FHIR definitions (FHIR base, Medplum and the other published profiles).
import type { Bundle, BundleEntry, StructureDefinition } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { withoutVersion } from '../../fhir/value-set-expansion';
import type { Database } from '../db';
import { onFirstUse, readDefinitionResources } from '../definitions-source/definition-files';
import type { QueryParams } from '../fhir/paging';
import type { RepositoryContext } from '../repo';
import { findStoredCanonical } from './canonical-lookup';
import { checkKnownParams, singleParam } from './query-params';

const PROFILE_FILES = [
  'profiles-types.json',
  'profiles-resources.json',
  'profiles-medplum.json',
  'profiles-others.json',
];
/** As Medplum: nested profiles are followed this many levels deep. */
export const MAX_PROFILE_DEPTH = 10;

/** url → the StructureDefinition as JSON text: text is far smaller in memory than the parsed tree. */
const loadDefinitionProfiles = onFirstUse(async () => {
  const profiles = new Map<string, string>();
  for await (const { resource, text } of readDefinitionResources(PROFILE_FILES)) {
    if (resource.resourceType === 'StructureDefinition' && resource.url) {
      profiles.set(resource.url, text);
    }
  }
  return profiles;
});

async function definitionProfile(url: string): Promise<StructureDefinition | undefined> {
  const text = (await loadDefinitionProfiles()).get(withoutVersion(url));
  return text === undefined ? undefined : (JSON.parse(text) as StructureDefinition);
}

async function findProfile(
  db: Database,
  context: RepositoryContext,
  url: string,
): Promise<StructureDefinition | undefined> {
  return (
    (await findStoredCanonical<StructureDefinition>(db, context, 'StructureDefinition', url)) ??
    (await definitionProfile(url))
  );
}

/** The profile URLs named by the types of the snapshot's elements, in order, each once. */
function referencedProfiles(profile: StructureDefinition): string[] {
  const urls = new Set<string>();
  for (const element of profile.snapshot?.element ?? []) {
    for (const type of element.type ?? []) {
      for (const url of type.profile ?? []) urls.add(url);
    }
  }
  return [...urls];
}

async function loadNested(
  db: Database,
  context: RepositoryContext,
  profile: StructureDefinition,
  seen: Set<string>,
  depth: number,
): Promise<StructureDefinition[]> {
  if (depth > MAX_PROFILE_DEPTH) {
    return [];
  }
  const found: StructureDefinition[] = [];
  const next = referencedProfiles(profile).filter((url) => !seen.has(url));
  next.forEach((url) => seen.add(url));
  for (const url of next) {
    const nested = await findProfile(db, context, url);
    if (nested) {
      found.push(nested, ...(await loadNested(db, context, nested, seen, depth + 1)));
    }
  }
  return found;
}

export async function expandProfile(
  db: Database,
  context: RepositoryContext,
  fhirBase: string,
  query: QueryParams,
): Promise<Bundle<StructureDefinition>> {
  checkKnownParams(query, ['url'], '$expand-profile');
  const url = singleParam(query, 'url')?.trim();
  if (!url) {
    throw new OperationOutcomeError(badRequest('StructureDefinition profile url not specified', 'url'));
  }
  const profile = await findProfile(db, context, url);
  if (!profile) {
    throw new OperationOutcomeError(
      badRequest(`StructureDefinition profile with URL ${url} not found`, 'url'),
    );
  }
  const nested = await loadNested(db, context, profile, new Set([url, withoutVersion(url)]), 1);
  const entry: BundleEntry<StructureDefinition>[] = [profile, ...nested]
    .filter((sd) => sd.id !== undefined)
    .map((sd) => ({
      fullUrl: `${fhirBase}StructureDefinition/${sd.id}`,
      resource: sd,
      search: { mode: 'match' },
    }));
  return { resourceType: 'Bundle', type: 'searchset', entry };
}
