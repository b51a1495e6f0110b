// _count and _offset, the only query parameters of history. Anything else is rejected by name
// instead of being silently ignored.
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { PageRequest } from '../repo';

export const DEFAULT_COUNT = 20;
export const MAX_COUNT = 1000;

export type QueryParams = Record<string, string | string[] | undefined>;

export function parsePaging(query: QueryParams, what: string): PageRequest {
  for (const name of Object.keys(query)) {
    if (name !== '_count' && name !== '_offset') {
      throw new OperationOutcomeError(
        badRequest(`Unsupported parameter '${name}': ${what} supports only _count and _offset`),
      );
    }
  }
  const count = readWholeNumber(query, '_count') ?? DEFAULT_COUNT;
  const offset = readWholeNumber(query, '_offset') ?? 0;
  // Larger pages are clamped rather than refused, as FHIR allows; the self link shows the real count.
  return { count: Math.min(count, MAX_COUNT), offset };
}

function readWholeNumber(query: QueryParams, name: string): number | undefined {
  const raw = query[name];
  if (raw === undefined) {
    return undefined;
  }
  if (Array.isArray(raw)) {
    throw new OperationOutcomeError(badRequest(`Parameter '${name}' is given more than once`));
  }
  if (!/^\d{1,9}$/.test(raw)) {
    throw new OperationOutcomeError(badRequest(`Parameter '${name}' must be a whole number, got '${raw}'`));
  }
  return Number(raw);
}

/** A query string for a page: `?_count=20&_offset=40`. */
export function pageQuery(page: PageRequest): string {
  return `?_count=${page.count}&_offset=${page.offset}`;
}
