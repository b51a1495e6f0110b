// Everything a table's first rows need, asked for at once as the route opens, while the grid's chunk
// is still downloading: in one GraphQL request (SearchTableStart), the schema lists
// (StructureDefinitionFields, SearchParameterList for the type and for Resource) unless the cache
// holds them, and the rows themselves when the URL can be read without the schema; beside it, the
// user's saved layouts (one key-value read per session). The rows' _fields depend on the saved
// layout, so they are asked for with the layout known so far (this session's, or this browser's copy
// of it, or the type's defaults); when the key-value answer says otherwise, the table asks again with
// the saved fields, so a wrong guess costs one request, never a wrong table. The table's own queries
// are the same operations with the same variables: it waits until every answer is in
// (pendingTableStart) and then reads them all from Apollo's cache in one render, instead of drawing
// the grid again as each answer arrives. A small chunk of its own, so the start of the route never
// waits for the grid.
import type { BloomClient } from '../../../client';
import type { TypedDocumentNode } from '@apollo/client';
import {
  SearchParameterListDocument,
  SearchTableStartDocument,
  StructureDefinitionFieldsDocument,
} from '../../../graphql';
import { sharedGraphqlClient } from '../../../graphql/shared-client';
import { markPrefetched } from './prefetchedRows';
import { resourceListVariables } from './resourceListVariables';
import { effectiveRequest, readWithoutSchema, tableFields } from './searchState';
import { layoutsOf } from './useTableSettings';

/** One type's start: settled once every request it sent has answered or failed. */
interface TableStart {
  readonly settled: Promise<void>;
  done: boolean;
}
const starts = new Map<string, TableStart>();

/**
 * The requests prefetchTable last sent for this type, while any is still on its way (else undefined).
 * The table waits for them and then renders once, from the cache, instead of once per answer.
 */
export function pendingTableStart(resourceType: string): Promise<void> | undefined {
  const start = starts.get(resourceType);
  return start && !start.done ? start.settled : undefined;
}

/** The last prefetch: the start-up's and the route's for the same address are one. */
let last: { key: string; at: number } | undefined;
const SAME_START_MS = 30_000;

export function prefetchTable(
  client: BloomClient,
  resourceType: string,
  queryString: string,
  now = Date.now(),
): void {
  const key = `${resourceType}?${queryString}`;
  if (last?.key === key && now - last.at < SAME_START_MS) return;
  last = { key, at: now };
  const apollo = sharedGraphqlClient(client);
  const layouts = layoutsOf(client);
  // The table's own queries report any error: a prefetch only warms the cache.
  const requests: Promise<unknown>[] = [layouts.prefetch()];
  const search = readWithoutSchema(resourceType, queryString);
  let rows: ReturnType<typeof resourceListVariables> | undefined;
  if (search) {
    const fields = tableFields(search.request, layouts.hint(resourceType)?.fields);
    rows = resourceListVariables(effectiveRequest({ ...search.request, fields }));
    markPrefetched(rows);
  }
  const uncached = <T, V extends Record<string, unknown>>(query: TypedDocumentNode<T, V>, variables: V) =>
    apollo.readQuery({ query, variables }) === null;
  const variables = {
    resourceType,
    search: rows?.search,
    withRows: rows !== undefined,
    withDefinition: uncached(StructureDefinitionFieldsDocument, { name: resourceType }),
    withOwnParameters: uncached(SearchParameterListDocument, { base: resourceType }),
    withCommonParameters: uncached(SearchParameterListDocument, { base: 'Resource' }),
  };
  // The rows and the schema in one request (SearchTableStart.graphql); an answer with an error is not
  // cached (errorPolicy 'none'), and the table's own queries then ask again, each alone.
  if (Object.values(variables).includes(true)) {
    requests.push(apollo.query({ query: SearchTableStartDocument, variables, fetchPolicy: 'network-only' }));
  }
  const start: TableStart = { settled: Promise.allSettled(requests).then(() => undefined), done: false };
  void start.settled.then(() => (start.done = true));
  starts.set(resourceType, start);
}
