// The searchset Bundle of a search (SPEC §3 Bundle, §7 "search bundles carry entry and
// link (relation next)"): matches then includes, `total` when known, and paging links built with
// formatSearchQuery so a client following them sends exactly the request it would have built.
import type { Bundle, BundleEntry, BundleLink, Resource } from '@medplum/fhirtypes';
import type { SearchRequest } from '../../fhir/search';
import { formatSearchQuery } from '../../fhir/search';
import { DEFAULT_SEARCH_COUNT } from './request-validation';
import { projectMatch } from './summary';
import type { SearchResult } from './types';

export interface SearchsetOptions {
  /** Absolute URL of the FHIR base, ending in '/'. */
  fhirBase: string;
  request: SearchRequest;
  result: SearchResult;
}

function pageUrl(fhirBase: string, request: SearchRequest, offset: number): string {
  return fhirBase + request.resourceType + formatSearchQuery({ ...request, offset });
}

/** self, first, previous (when not on the first page) and next (when the engine saw more). */
export function searchLinks(fhirBase: string, request: SearchRequest, hasMore: boolean): BundleLink[] {
  const count = request.count ?? DEFAULT_SEARCH_COUNT;
  const offset = request.offset ?? 0;
  const paged: SearchRequest = { ...request, count };
  const links: BundleLink[] = [
    { relation: 'self', url: pageUrl(fhirBase, paged, offset) },
    { relation: 'first', url: pageUrl(fhirBase, paged, 0) },
  ];
  if (offset > 0) {
    links.push({ relation: 'previous', url: pageUrl(fhirBase, paged, Math.max(0, offset - count)) });
  }
  if (hasMore && count > 0) {
    links.push({ relation: 'next', url: pageUrl(fhirBase, paged, offset + count) });
  }
  return links;
}

function entryOf(fhirBase: string, resource: Resource, mode: 'match' | 'include'): BundleEntry {
  return { fullUrl: `${fhirBase}${resource.resourceType}/${resource.id}`, resource, search: { mode } };
}

/** The Bundle answering a search: projections (_summary, _elements) apply to matches only. */
export function searchsetBundle({ fhirBase, request, result }: SearchsetOptions): Bundle {
  const bundle: Bundle = { resourceType: 'Bundle', type: 'searchset' };
  if (result.total !== undefined) {
    bundle.total = result.total;
  }
  bundle.link = searchLinks(fhirBase, request, result.hasMore);
  if (request.summary === 'count') {
    return bundle;
  }
  bundle.entry = [
    ...result.resources.map((resource) =>
      entryOf(fhirBase, projectMatch(resource, request.summary, request.fields), 'match'),
    ),
    ...result.included.map((resource) => entryOf(fhirBase, resource, 'include')),
  ];
  return bundle;
}
