// The per-request reference loader: every `resource` of a Reference and every `Type(id)` asked in one
// tick of execution is read in one SQL statement (readResourcesBatch), whatever the number of types,
// and each resource at most once per request. Missing and hidden answer alike: 404 Not found.
import type { Reference, Resource } from '@medplum/fhirtypes';
import DataLoader from 'dataloader';
import { notFound, OperationOutcomeError } from '../../fhir';
import type { Database } from '../db';
import type { RepositoryContext } from '../repo';
import { readResourcesBatch } from '../repo/batch-read';
import type { ResourceKey } from '../repo/batch-read';

// A relative literal reference, optionally versioned (the current version is returned).
const LOCAL_REFERENCE = /^([A-Z][A-Za-z]*)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[A-Za-z0-9\-.]{1,64})?$/;

export function createReferenceLoader(
  db: Database,
  context: RepositoryContext,
): DataLoader<string, Resource> {
  return new DataLoader<string, Resource>(async (keys) => {
    const parsed = keys.map(parseKey);
    const found = await readResourcesBatch(
      db,
      context,
      parsed.filter((key): key is ResourceKey => key !== undefined),
    );
    return keys.map((key) => found.get(key) ?? new OperationOutcomeError(notFound));
  });
}

function parseKey(key: string): ResourceKey | undefined {
  const match = LOCAL_REFERENCE.exec(key);
  return match ? { resourceType: match[1], id: match[2] } : undefined;
}

/** 'Type/id' of a local literal reference; undefined for contained ('#…'), logical or absolute ones. */
export function referenceKey(reference: Reference | undefined): string | undefined {
  const match = reference?.reference ? LOCAL_REFERENCE.exec(reference.reference) : null;
  return match ? `${match[1]}/${match[2]}` : undefined;
}
