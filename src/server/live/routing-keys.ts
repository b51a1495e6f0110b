// Which listeners an event can concern, without asking each of them (in the live benchmark, 1,000
// sockets on distinct patients made every event cost 1,000 matches). A criteria string with an
// equality on a reference to Type/id ('subject=Patient/1') can only match a version that has that
// reference row, so its listener is filed under 'subject=Patient/1' and an event visits only the
// listeners filed under its own reference rows, plus those without a key. The listener still runs
// the full match (criteria-match.ts): the key is a necessary condition, never a sufficient one.
import { getSearchParameter } from '../../fhir';
import { Operator, splitOrValues } from '../../fhir/search';
import type { SearchRequest } from '../../fhir/search';
import type { MatchTarget } from './criteria-match';

const TYPED_REFERENCE = /^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/;

/** The key of the first single-valued Type/id reference equality in the criteria, if any. */
export function routingKey(criteria: SearchRequest): string | undefined {
  for (const filter of criteria.filters ?? []) {
    if (filter.operator !== Operator.EQUALS) continue;
    if (getSearchParameter(criteria.resourceType, filter.code)?.type !== 'reference') continue;
    const values = splitOrValues(filter.value);
    if (values.length === 1 && TYPED_REFERENCE.test(values[0])) {
      return `${filter.code}=${values[0]}`;
    }
  }
  return undefined;
}

/** Every key a listener of this version may be filed under. */
export function eventRoutingKeys(target: MatchTarget): string[] {
  return target.rows.reference
    .filter((row) => row.targetType && row.targetId)
    .map((row) => `${row.code}=${row.targetType}/${row.targetId}`);
}
