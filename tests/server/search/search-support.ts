// Shared set-up of the search suites: a Repository on a fresh database and a helper that runs a
// search URL through the real parser and returns the matching ids (order kept).
import type { Resource } from '@medplum/fhirtypes';
import { OperationOutcomeError, getStatus } from '../../../src/fhir';
import { parseSearchRequest } from '../../../src/fhir/search';
import type { SearchRequest } from '../../../src/fhir/search';
import type { AccessPolicy } from '@medplum/fhirtypes';
import type { Repository, RepositoryContext } from '../../../src/server/repo';
import { buildPatientAccessPolicy } from '../../../src/server/seed';
import type { SearchResult } from '../../../src/server/search/types';
import { combinePolicies } from '../../../src/server/access/policy';

export async function searchUrl<T extends Resource = Resource>(
  repo: Repository,
  url: string,
  extra: Partial<SearchRequest> = {},
): Promise<SearchResult<T>> {
  return repo.search<T>({ ...parseSearchRequest(url), ...extra });
}

/** The ids of the matches, in order. */
export async function ids(
  repo: Repository,
  url: string,
  extra: Partial<SearchRequest> = {},
): Promise<string[]> {
  // The URL's own _count wins; otherwise every match.
  const result = await repo.search({ count: 1000, ...parseSearchRequest(url), ...extra });
  return result.resources.map((resource) => resource.id as string);
}

/** The same ids sorted, for searches without _sort. */
export async function idSet(repo: Repository, url: string): Promise<string[]> {
  return (await ids(repo, url)).sort();
}

export async function statusOf(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof OperationOutcomeError) {
      return { status: getStatus(err.outcome), message: err.message };
    }
    throw err;
  }
  throw new Error('expected the call to fail');
}

export function sorted(values: (string | undefined)[]): string[] {
  return values.map((value) => value as string).sort();
}

/** A patient signed in to `project`: her compartment and (by default) the demo clinic's patient policy. */
export function patientContext(
  project: string,
  patientId: string,
  accessPolicy: AccessPolicy = buildPatientAccessPolicy(),
): RepositoryContext {
  return {
    project,
    author: { reference: `Patient/${patientId}` },
    access: {
      superAdmin: false,
      projectAdmin: false,
      profile: { reference: `Patient/${patientId}` },
      membership: { reference: `ProjectMembership/${patientId}` },
      patientCompartment: `Patient/${patientId}`,
      accessPolicy,
      policy: combinePolicies([{ policy: accessPolicy }], { reference: `Patient/${patientId}` }),
    },
  };
}
