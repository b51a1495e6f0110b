// Whether one resource version matches a subscription's criteria, decided in memory.
// The values come from the search engine's own extraction (extractIndexRows: the same FHIRPath,
// the same folding, the same date ranges), and each parameter type's matcher sits beside its SQL
// probe in src/server/search/kinds/, so a live criteria string selects exactly what the same search
// would return. Criteria the live engine cannot decide on one resource (chains, _has, value sets)
// are refused when the criteria are parsed (criteria.ts). `_filter` is decided here too,
// comparison by comparison as the SQL builds it (filter-expression-sql.ts), for the base
// definitions searched in memory (definitions-source: Medplum's requestSchema asks for
// `StructureDefinitionList(_filter: "name eq Patient")`); subscriptions still refuse it.
import { getSearchParameter } from '../../fhir';
import type { SearchRequest } from '../../fhir/search';
import { filterTree } from '../search/filter-expression-sql';
import type { FilterTree } from '../search/filter-expression-sql';
import { RESOURCE_PARAMETERS, SEARCH_KINDS } from '../search/kinds';
import type { MatchTarget, SearchKind } from '../search/kinds';
import { invalid } from '../search/kinds/probe';
import type { SqlFilter } from '../search/types';

export type { MatchTarget } from '../search/kinds';
export { compartmentsOf } from '../search/kinds';

export function matchesCriteria(request: SearchRequest, target: MatchTarget): boolean {
  if (target.resource.resourceType !== request.resourceType) {
    return false;
  }
  return (request.filters ?? []).every((filter) => matchesFilter(target, filter));
}

/** A `_filter` expression: and / or / not around comparisons, each a filter as the SQL has it. */
function matchesTree(target: MatchTarget, tree: FilterTree): boolean {
  switch (tree.kind) {
    case 'filter':
      return matchesFilter(target, tree.filter);
    case 'not':
      return !matchesTree(target, tree.operand);
    case 'and':
      return tree.operands.every((operand) => matchesTree(target, operand));
    default:
      return tree.operands.some((operand) => matchesTree(target, operand));
  }
}

function matchesFilter(target: MatchTarget, filter: SqlFilter): boolean {
  const { resource } = target;
  if (filter.code === '_filter') {
    return matchesTree(target, filterTree(resource.resourceType, filter.value));
  }
  const own = RESOURCE_PARAMETERS.get(filter.code);
  if (own?.matches) {
    return own.matches(target, filter);
  }
  const param = getSearchParameter(resource.resourceType, filter.code);
  if (!param) {
    return invalid(`Unknown search parameter '${filter.code}' for ${resource.resourceType}`, filter.code);
  }
  const kind: SearchKind | undefined = SEARCH_KINDS[param.type];
  if (!kind) {
    return invalid(
      `Search parameter '${filter.code}' of type ${param.type} is not supported in criteria`,
      filter.code,
    );
  }
  return kind.matches(target, filter, param);
}
