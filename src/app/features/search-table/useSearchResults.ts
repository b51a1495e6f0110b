// One page of the table's rows: a REST search through the platform client with the chosen fields
// (_fields), the filters, sort and page of the URL's request. Every FHIR operator goes to the server
// exactly as the URL says it; the GraphQL connections have no modifiers (:not, :missing, :contains).
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { useEffect, useState } from 'react';
import { formatSearchQuery, type SearchRequest } from '../../../fhir/search';
import { useBloomClient } from '../../session/BloomClientContext';

export interface SearchResults {
  readonly loading: boolean;
  readonly error: unknown;
  readonly rows: Resource[];
  readonly total: number | undefined;
}

interface Settled {
  readonly key: string;
  readonly error: unknown;
  readonly bundle: Bundle | undefined;
}

/** `refreshCount` going up reloads the page past the client's cache (the toolbar's refresh). */
export function useSearchResults(request: SearchRequest | undefined, refreshCount: number): SearchResults {
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
