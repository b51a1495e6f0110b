// A subscription's criteria ('Communication?subject=Patient/1&status=completed') as the search
// engine's SearchRequest, checked once by the engine's own validation (same 400s as a search) and
// limited to what one resource version can decide: no chains, _has, value sets or composites,
// which need other rows of the database, nor _text, _content, _filter or near, which only the SQL
// decides.
import { badRequest, isResourceType, OperationOutcomeError } from '../../fhir';
import { Operator } from '../../fhir/search';
import type { SearchRequest } from '../../fhir/search';
import { getSearchParameter } from '../../fhir';
import { argNameToSearchParam } from '../graphql/naming';
import { validateSearchQuery } from '../search/request-validation';

const UNDECIDABLE_OPERATORS: ReadonlySet<string> = new Set([Operator.IN, Operator.NOT_IN]);
const SQL_ONLY_PARAMETERS: ReadonlySet<string> = new Set(['_text', '_content', '_filter']);

function refuse(message: string): never {
  throw new OperationOutcomeError(badRequest(message, 'criteria'));
}

/** `TypeChanged(subject: "Patient/1")` arguments as criteria (argument names back to parameter codes). */
export function criteriaFromArgs(resourceType: string, args: Record<string, unknown>): SearchRequest {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (value !== undefined && value !== null) query.append(argNameToSearchParam(name), String(value));
  }
  const text = query.toString();
  return parseCriteria(text ? `${resourceType}?${text}` : resourceType);
}

export function parseCriteria(criteria: unknown): SearchRequest {
  if (typeof criteria !== 'string' || criteria.trim() === '') {
    refuse('Subscription criteria must be a search string such as Communication?subject=Patient/123');
  }
  const text = criteria.trim();
  const question = text.indexOf('?');
  const resourceType = question < 0 ? text : text.slice(0, question);
  if (!isResourceType(resourceType)) {
    refuse(`Unknown resource type '${resourceType}' in criteria`);
  }
  const request = validateSearchQuery(
    resourceType,
    new URLSearchParams(question < 0 ? '' : text.slice(question + 1)),
  );
  for (const filter of request.filters ?? []) {
    if (filter.code.startsWith('_has:') || filter.code.includes('.')) {
      refuse(`Criteria cannot use chained or reverse-chained parameters ('${filter.code}')`);
    }
    if (UNDECIDABLE_OPERATORS.has(filter.operator)) {
      refuse(`Criteria cannot use ':${filter.operator}' ('${filter.code}')`);
    }
    if (getSearchParameter(resourceType, filter.code)?.type === 'composite') {
      refuse(`Criteria cannot use composite parameters ('${filter.code}')`);
    }
    // Decided in SQL only (full-text search, filter expressions, near's distance): refused here
    // rather than failing on every write the engine tries to match.
    if (
      SQL_ONLY_PARAMETERS.has(filter.code) ||
      getSearchParameter(resourceType, filter.code)?.type === 'special'
    ) {
      refuse(`Criteria cannot use '${filter.code}'`);
    }
  }
  if (request.include?.length || request.revInclude?.length) {
    refuse('Criteria cannot use _include or _revinclude');
  }
  return request;
}
