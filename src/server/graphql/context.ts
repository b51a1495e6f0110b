// What every resolver of one GraphQL request shares: the caller's repository, a search function
// (the search engine, access-controlled like REST) and the request's reference loader, so each
// resource is read once per request and reads are batched (see reference-loader.ts).
import type { Resource } from '@medplum/fhirtypes';
import type DataLoader from 'dataloader';
import type { SearchRequest } from '../../fhir/search/types';
import type { BinaryUrlSigner } from '../binary/attachment-urls';
import type { Repository } from '../repo';
import type { SearchResult } from '../search/types';

export interface GraphQLContext {
  repo: Repository;
  search: (request: SearchRequest) => Promise<SearchResult>;
  /** Keyed by 'Type/id'; rejects with a 404 OperationOutcomeError for what is missing or hidden. */
  loader: DataLoader<string, Resource>;
  /** Signs Attachment.url values that point at a Binary; absent: URLs as stored. */
  binaryUrls?: BinaryUrlSigner;
}

/** How a field spends the request's cost budget (read by limits.ts from the field's extensions). */
export type FieldCost = 'search' | 'read';

// A type alias, not an interface: graphql's extensions map wants an index signature.
// `bloomSearchArg` names an argument holding a FHIR query string whose `_count` is the page size.
export type BloomFieldExtensions = { bloomCost?: FieldCost; bloomSearchArg?: string };
