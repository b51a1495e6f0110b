// `ResourceSearch(resourceType, search)`: one generic search field for screens that learn the type
// and the columns at run time (the generic table, SPEC §2, §7). `search` is the FHIR query string
// the REST search takes (`status=final&_sort=-date&_fields=status,code&_total=accurate`), checked
// by the same edge check, so every modifier, `_filter`, `_total` mode and `_fields` projection
// means what it means in a URL, and the screen's one typed operation covers every type. Resources
// come back as JSON, projected and with attachment URLs signed as REST answers them.
import type { Resource } from '@medplum/fhirtypes';
import { GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString } from 'graphql';
import type { GraphQLFieldConfig } from 'graphql';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { SearchRequest } from '../../fhir/search/types';
import { signAttachmentUrls } from '../binary/signed-responses';
import { checkUrlResourceType } from '../fhir/interactions';
import { validateSearchQuery } from '../search/request-validation';
import { projectMatch } from '../search/summary';
import type { BloomFieldExtensions, GraphQLContext } from './context';
import { GraphQLJSON } from './json-scalar';

export interface ResourceSearchValue {
  /** The total when the search asked for one (`_total=accurate` or `estimate`), else null. */
  total: number | null;
  offset: number;
  pageSize: number;
  /** The _offset of the next page, when there is one. */
  next: string | null;
  resources: Resource[];
  /** What `_include` / `_revinclude` added, apart from the matches. */
  included: Resource[];
}

/** The longest query string taken (a table's URL with many filters fits easily). */
export const MAX_SEARCH_LENGTH = 8192;

/** `search` as URL query parameters: a leading '?' is allowed, as in a copied URL. */
function searchParams(search: unknown): URLSearchParams {
  if (search === undefined || search === null) return new URLSearchParams();
  if (typeof search !== 'string')
    throw new OperationOutcomeError(badRequest('search must be a string', 'search'));
  if (search.length > MAX_SEARCH_LENGTH) {
    throw new OperationOutcomeError(
      badRequest(`search must be at most ${MAX_SEARCH_LENGTH} characters, got ${search.length}`, 'search'),
    );
  }
  return new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
}

/** Whether the caller may read Binary `id` (through the request's loader: access rules and batching). */
function readableBinary(context: GraphQLContext): (id: string) => Promise<boolean> {
  return (id) =>
    context.loader.load(`Binary/${id}`).then(
      () => true,
      () => false,
    );
}

async function resolveResourceSearch(
  _source: unknown,
  args: Record<string, unknown>,
  context: GraphQLContext,
): Promise<ResourceSearchValue> {
  const resourceType = String(args.resourceType);
  checkUrlResourceType(resourceType);
  const request = validateSearchQuery(resourceType, searchParams(args.search));
  // `_summary=count` asks for the total alone, as the REST search answers it.
  const engineRequest: SearchRequest =
    request.summary === 'count' ? { ...request, count: 0, offset: 0, total: 'accurate' } : request;
  const result = await context.search(engineRequest);
  const offset = engineRequest.offset ?? 0;
  const pageSize = engineRequest.count ?? 0;
  const matches = result.resources.map((resource) => projectMatch(resource, request.summary, request.fields));
  const answer = { resources: matches, included: result.included };
  const signed = context.binaryUrls
    ? await signAttachmentUrls(answer, context.binaryUrls, readableBinary(context))
    : answer;
  return {
    total: result.total ?? null,
    offset,
    pageSize,
    next: result.hasMore ? String(offset + pageSize) : null,
    ...signed,
  };
}

const RESOURCES = new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLJSON)));

const RESULT = new GraphQLObjectType({
  name: 'ResourceSearchResult',
  fields: {
    total: { type: GraphQLInt },
    offset: { type: new GraphQLNonNull(GraphQLInt) },
    pageSize: { type: new GraphQLNonNull(GraphQLInt) },
    next: { type: GraphQLString },
    resources: { type: RESOURCES },
    included: { type: RESOURCES },
  },
});

// The cost check reads the page size from `_count` inside `search`.
const EXTENSIONS: BloomFieldExtensions = { bloomCost: 'search', bloomSearchArg: 'search' };

/** The root field (a new name beside Medplum's per-type fields, which stay as they are). */
export function resourceSearchField(): GraphQLFieldConfig<unknown, GraphQLContext> {
  return {
    type: new GraphQLNonNull(RESULT),
    args: {
      resourceType: { type: new GraphQLNonNull(GraphQLString) },
      search: { type: GraphQLString },
    },
    resolve: resolveResourceSearch,
    extensions: EXTENSIONS,
  };
}
