// One page of the table's rows for the URL's request. Rows come through the ResourceList GraphQL
// operation (SPEC §7) selecting the chosen fields, with the filters, sort and page as the
// connection's arguments. What those arguments cannot say (modifiers such as `:not`, `:missing`,
// `:contains`; two conditions on one parameter, as a range; `_filter`; an estimated `_total`) goes by
// the REST search with `_fields`, so every filter reaches the server exactly as the URL says it.
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { useQuery } from '@apollo/client/react';
import type { Bundle, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { useEffect, useMemo, useState } from 'react';
import { isOperationOutcome, OperationOutcomeError } from '../../../fhir/outcomes';
import { formatSearchQuery, type SearchRequest } from '../../../fhir/search';
import { compactRow, resourceListQuery } from '../../../graphql/resource-list-query';
import { useBloomClient } from '../../session/BloomClientContext';

export interface SearchResults {
  readonly loading: boolean;
  readonly error: unknown;
  readonly rows: Resource[];
  readonly total: number | undefined;
}

interface Connection {
  readonly count?: number | null;
  readonly edges?: readonly ({ readonly resource?: unknown } | null)[] | null;
}

/** A placeholder for the skipped useQuery (hooks cannot be called conditionally). */
const NO_QUERY = resourceListQuery({ resourceType: 'Resource' }, '')!.document;

/** A GraphQL field error's OperationOutcomes (extensions.outcome) as one error for the error panel. */
function searchError(error: unknown): unknown {
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

/** `refreshCount` going up reloads the page past the caches (the toolbar's refresh, a delete). */
export function useSearchResults(
  request: SearchRequest | undefined,
  selection: string,
  parameters: ReadonlyMap<string, unknown>,
  refreshCount: number,
): SearchResults {
  const key = request ? `${request.resourceType}${formatSearchQuery(request)}` : '';
  const query = useMemo(
    () => (request ? resourceListQuery(request, selection, (code) => parameters.has(code)) : undefined),
    // The key names the request completely; the object itself is rebuilt on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key, selection, parameters],
  );
  const graphql = useQuery(query?.document ?? NO_QUERY, {
    variables: query?.variables,
    skip: !query,
    // A table revisited (back button, after New...) shows what it had and asks again.
    fetchPolicy: 'cache-and-network',
  });
  const { refetch } = graphql;
  useEffect(() => {
    if (query && refreshCount > 0) void refetch().catch(() => undefined);
  }, [query, refetch, refreshCount]);
  const rest = useRestSearch(request && !query ? request : undefined, refreshCount);
  if (!query) return rest;

  const data = graphql.data as Record<string, Connection | null> | undefined;
  const connection = data && request ? data[request.resourceType] : undefined;
  const rows = (connection?.edges ?? [])
    .map((edge) => compactRow(edge?.resource) as Resource | undefined)
    .filter((row): row is Resource => row !== undefined);
  return {
    loading: !connection && !graphql.error,
    error: graphql.error ? searchError(graphql.error) : undefined,
    rows,
    total: connection?.count ?? undefined,
  };
}

interface Settled {
  readonly key: string;
  readonly error: unknown;
  readonly bundle: Bundle | undefined;
}

function useRestSearch(request: SearchRequest | undefined, refreshCount: number): SearchResults {
  const client = useBloomClient();
  const key = request ? `${request.resourceType}${formatSearchQuery(request)}#${refreshCount}` : '';
  const [settled, setSettled] = useState<Settled | undefined>(undefined);
  useEffect(() => {
    if (!request) return;
    let active = true;
    client.search(request, undefined, { cache: refreshCount > 0 ? 'reload' : 'default' }).then(
      (bundle) => active && setSettled({ key, bundle, error: undefined }),
      (error: unknown) => active && setSettled({ key, bundle: undefined, error }),
    );
    return () => {
      active = false;
    };
    // The key names the request completely; the object itself is rebuilt on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, key]);
  const current = settled?.key === key ? settled : undefined;
  const rows = (current?.bundle?.entry ?? [])
    .filter((entry) => entry.search?.mode !== 'include')
    .flatMap((entry) => (entry.resource ? [entry.resource] : []));
  return {
    loading: request !== undefined && current === undefined,
    error: current?.error,
    rows,
    total: current?.bundle?.total,
  };
}
