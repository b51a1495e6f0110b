// One page of the table's rows for the URL's request, in one request: the typed ResourceList
// operation (operations/ResourceList.graphql, SPEC §7) sends the request as its FHIR query string, so
// every filter (modifiers such as `:not`, `:missing`, `:contains`, ranges, `_filter`), the sort, the
// page, the chosen `_fields` and the `_total` mode reach the server exactly as the URL says them.
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { skipToken, useQuery } from '@apollo/client/react';
import type { OperationOutcome, Resource } from '@medplum/fhirtypes';
import { useEffect, useMemo } from 'react';
import { isOperationOutcome, OperationOutcomeError } from '../../../fhir/outcomes';
import type { SearchRequest } from '../../../fhir/search';
import { ResourceListDocument } from '../../../graphql';
import { takePrefetched } from './prefetchedRows';
import { resourceListVariables } from './resourceListVariables';

export interface SearchResults {
  readonly loading: boolean;
  readonly error: unknown;
  readonly rows: Resource[];
  readonly total: number | undefined;
}

/** The answer's JSON is checked, not trusted: a row is an object with a resourceType. */
function isResource(value: unknown): value is Resource {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { resourceType?: unknown }).resourceType === 'string'
  );
}

/** A GraphQL field error's OperationOutcomes (extensions.outcome) as one error for the error panel. */
export function searchError(error: unknown): unknown {
  if (!CombinedGraphQLErrors.is(error)) return error;
  const outcomes = error.errors
    .map((graphqlError) => graphqlError.extensions?.outcome)
    .filter((outcome): outcome is OperationOutcome => isOperationOutcome(outcome));
  if (outcomes.length === 0) return error;
  return new OperationOutcomeError({
    resourceType: 'OperationOutcome',
    issue: outcomes.flatMap((outcome) => outcome.issue ?? []),
  });
}

/** `refreshCount` going up reloads the page past the cache (the toolbar's refresh, a delete). */
export function useSearchResults(request: SearchRequest | undefined, refreshCount: number): SearchResults {
  const variables = request ? resourceListVariables(request) : undefined;
  const key = variables ? `${variables.resourceType}?${variables.search}` : '';
  // Rows the route asked for ahead of the table (./tablePrefetch) are taken as they come; a table
  // revisited (back button, after New...) shows what it had and asks again.
  const fetchPolicy = useMemo(
    () => (variables && takePrefetched(variables) ? 'cache-first' : 'cache-and-network'),
    // One choice per request: `variables` is a new object each render, its key is not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );
  const { data, error, refetch } = useQuery(
    ResourceListDocument,
    variables ? { variables, fetchPolicy } : skipToken,
  );
  const searching = variables !== undefined;
  useEffect(() => {
    if (searching && refreshCount > 0) void refetch().catch(() => undefined);
  }, [searching, refetch, refreshCount]);
  const page = searching ? data?.ResourceSearch : undefined;
  // One array per answer: a new one each render would make the grid process its rows again.
  const rows = useMemo(() => (page?.resources ?? []).filter(isResource), [page]);
  return {
    loading: searching && !page && !error,
    error: searching && error ? searchError(error) : undefined,
    rows,
    total: page?.total ?? undefined,
  };
}
