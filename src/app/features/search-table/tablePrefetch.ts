// Everything a table's first rows need, asked for at once as the route opens, while the grid's chunk
// is still downloading: the schema lists (StructureDefinitionFields, SearchParameterList for the type
// and for Resource), the user's saved layouts (one key-value read per session) and, when the URL
// can be read without the schema, the rows themselves. The rows' _fields depend on the saved layout,
// so they are asked for with the layout known so far (this session's, or this browser's copy of it,
// or the type's defaults); when the key-value answer says otherwise, the table asks again with the
// saved fields, so a wrong guess costs one request, never a wrong table. The table's own queries are
// the same operations with the same variables: Apollo answers them from its cache or joins the
// request in flight (the table itself shows a URL without filters before the schema answers,
// ./SearchTablePage). A small chunk of its own, so the start of the route never waits for the grid.
import type { BloomClient } from '../../../client';
import {
  ResourceListDocument,
  SearchParameterListDocument,
  StructureDefinitionFieldsDocument,
} from '../../../graphql';
import { sharedGraphqlClient } from '../../../graphql/shared-client';
import { markPrefetched } from './prefetchedRows';
import { resourceListVariables } from './resourceListVariables';
import { effectiveRequest, readWithoutSchema, tableFields } from './searchState';
import { layoutsOf } from './useTableSettings';

function quietly(request: Promise<unknown>): void {
  // The table's own queries report any error: a prefetch only warms the cache.
  request.catch(() => undefined);
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
  layouts.prefetch();
  // The rows first: the table shows them before the schema answers (a server with one database
  // thread answers in the order asked).
  const search = readWithoutSchema(resourceType, queryString);
  if (search) {
    const fields = tableFields(search.request, layouts.hint(resourceType)?.fields);
    const variables = resourceListVariables(effectiveRequest({ ...search.request, fields }));
    markPrefetched(variables);
    quietly(apollo.query({ query: ResourceListDocument, variables, fetchPolicy: 'network-only' }));
  }
  quietly(apollo.query({ query: StructureDefinitionFieldsDocument, variables: { name: resourceType } }));
  quietly(apollo.query({ query: SearchParameterListDocument, variables: { base: resourceType } }));
  quietly(apollo.query({ query: SearchParameterListDocument, variables: { base: 'Resource' } }));
}
