// Search URLs (SPEC §7 "Search: GET {type}?params"). A SearchRequest (SPEC §3 search state) is
// formatted by src/fhir's formatSearchQuery, the one implementation shared with the server and the
// app (sorted parameters, _fields, _offset, _count, _total, _sort, _include, _revinclude); plain
// query values (a string, URLSearchParams, pairs or a record, as MedplumClient takes them) keep
// the caller's order.
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { formatSearchQuery } from '../fhir/search/format';
import type { SearchRequest } from '../fhir/search/types';

/** The query forms MedplumClient accepts. */
export type QueryTypes =
  | URLSearchParams
  | string[][]
  | Record<string, string | number | boolean | readonly (string | number | boolean)[] | undefined>
  | string
  | undefined;

/** A record's undefined values are left out and its arrays repeat the key. */
export function toQueryString(query: QueryTypes): string {
  if (query === undefined) {
    return '';
  }
  if (typeof query === 'string') {
    return query.replace(/^\?/, '');
  }
  if (query instanceof URLSearchParams || Array.isArray(query)) {
    return new URLSearchParams(query).toString();
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) {
      continue;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      params.append(key, String(item));
    }
  }
  return params.toString();
}

/** `{fhirBase}{type}?{query}`; with a SearchRequest its own type and formatted parameters. */
export function searchUrl(
  fhirBaseUrl: string,
  typeOrRequest: string | SearchRequest,
  query?: QueryTypes,
): string {
  if (typeof typeOrRequest !== 'string') {
    return fhirBaseUrl + typeOrRequest.resourceType + formatSearchQuery(typeOrRequest);
  }
  const queryString = toQueryString(query);
  return fhirBaseUrl + typeOrRequest + (queryString ? '?' + queryString : '');
}

/** Search results as an array that still carries the Bundle (for its links and total). */
export type ResourceArray<T extends Resource = Resource> = T[] & { bundle: Bundle<T> };

export function bundleToResourceArray<T extends Resource>(bundle: Bundle<T>): ResourceArray<T> {
  const resources = (bundle.entry ?? [])
    .filter((entry) => entry.search?.mode !== 'include' && entry.search?.mode !== 'outcome')
    .map((entry) => entry.resource)
    .filter((resource): resource is T => resource !== undefined);
  return Object.assign(resources, { bundle });
}

/** The Bundle's link with relation 'next' (SPEC §3 "search bundles carry entry and link (relation next)"). */
export function nextLink(bundle: Bundle): string | undefined {
  return bundle.link?.find((link) => link.relation === 'next')?.url;
}
