// GET /fhir/R4?_type=A,B&… — search across several types (FHIR R4 search §3.1.1.2 system level)
// with the common parameters. Each type is searched for the first offset+count+1 matches, the
// lists are merged (by the _sort on _lastUpdated or _id, else type by type in _type order) and
// the page is cut from the merge, so offset paging stays consistent. No _include/_revinclude here.
import type { Resource } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { SearchRequest, SortRule } from '../../fhir/search';
import type { Repository } from '../repo';
import { searchsetBundle } from '../search/bundle';
import type { SearchValidationOptions } from '../search/request-validation';
import { DEFAULT_SEARCH_COUNT, validateSearchQuery } from '../search/request-validation';
import type { SearchResult } from '../search/types';
import type { FhirResult } from './interactions';
import { checkUrlResourceType } from './interactions';

/** At most this many types in one system search: each is one engine query. */
export const MAX_SYSTEM_SEARCH_TYPES = 20;
const MERGEABLE_SORTS = new Set(['_lastUpdated', '_id']);

function compareBy(rules: readonly SortRule[]): (a: Resource, b: Resource) => number {
  const key = (resource: Resource, code: string): string =>
    (code === '_id' ? resource.id : resource.meta?.lastUpdated) ?? '';
  return (a, b) => {
    for (const rule of rules) {
      const [x, y] = [key(a, rule.code), key(b, rule.code)];
      if (x !== y) {
        return (x < y ? -1 : 1) * (rule.descending ? -1 : 1);
      }
    }
    return 0;
  };
}

export async function systemSearchInteraction(
  repo: Repository,
  fhirBase: string,
  query: URLSearchParams,
  options: SearchValidationOptions = {},
): Promise<FhirResult> {
  const typeValues = query.getAll('_type');
  const types = typeValues.flatMap((value) => value.split(',')).filter((type) => type !== '');
  if (types.length === 0) {
    throw new OperationOutcomeError(
      badRequest('A system search needs _type (e.g. _type=Patient,Practitioner)', '_type'),
    );
  }
  if (types.length > MAX_SYSTEM_SEARCH_TYPES) {
    throw new OperationOutcomeError(
      badRequest(`_type lists at most ${MAX_SYSTEM_SEARCH_TYPES} types`, '_type'),
    );
  }
  types.forEach(checkUrlResourceType);
  const rest = new URLSearchParams([...query].filter(([key]) => key !== '_type'));
  const requests = types.map((type) => validateSearchQuery(type, rest, options));
  const first = requests[0];
  const sortRules = first.sortRules ?? [];
  const unmergeable = sortRules.find((rule) => !MERGEABLE_SORTS.has(rule.code));
  if (unmergeable) {
    throw new OperationOutcomeError(
      badRequest(`A system search sorts only by _lastUpdated or _id, not '${unmergeable.code}'`, '_sort'),
    );
  }
  if (first.include || first.revInclude) {
    throw new OperationOutcomeError(
      badRequest(
        'A system search does not take _include or _revinclude',
        first.include ? '_include' : '_revinclude',
      ),
    );
  }
  const offset = first.offset ?? 0;
  const count = first.count ?? DEFAULT_SEARCH_COUNT;
  const results = await Promise.all(
    requests.map((request) => repo.search({ ...request, offset: 0, count: offset + count + 1 })),
  );
  const merged = results.flatMap((result) => result.resources);
  if (sortRules.length > 0) {
    merged.sort(compareBy(sortRules));
  }
  const totals = results.map((result) => result.total);
  const result: SearchResult = {
    resources: merged.slice(offset, offset + count),
    included: [],
    hasMore: merged.length > offset + count,
  };
  if (totals.every((total) => total !== undefined)) {
    result.total = totals.reduce((sum: number, total) => sum + (total as number), 0);
  }
  // The links repeat _type: the Bundle's self URL is the base itself plus the same query.
  const linkRequest: SearchRequest = {
    ...first,
    resourceType: '',
    filters: [...(first.filters ?? []), { code: '_type', operator: 'eq', value: types.join(',') }],
  };
  return { status: 200, body: searchsetBundle({ fhirBase, request: linkRequest, result }) };
}
