// Bounds on one search's work, checked before it is planned: how many parameters (a repeated
// name counts each time) and how many values (a,b,c counts 3) one request may carry, and no
// control character in any of them. Without them one URL of 300 repeated `code` parameters kept
// PGlite, and so every other request, busy for a minute.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { stringProblem } from '../input-limits';
import type { RequestLimits } from '../input-limits';

type SearchLimits = Pick<RequestLimits, 'maxSearchParameters' | 'maxSearchValues' | 'maxStringLength'>;

function queryPairs(request: FastifyRequest): [string, string][] {
  const at = request.url.indexOf('?');
  const pairs = at < 0 ? [] : [...new URLSearchParams(request.url.slice(at + 1))];
  // POST _search: the form body holds parameters too.
  if (request.body instanceof URLSearchParams) {
    pairs.push(...request.body);
  }
  return pairs;
}

/** The first limit a request's parameters break, as a sentence; undefined if none. */
export function searchLimitProblem(pairs: [string, string][], limits: SearchLimits): string | undefined {
  if (pairs.length > limits.maxSearchParameters) {
    return `The request has ${pairs.length} parameters; the limit is ${limits.maxSearchParameters}`;
  }
  let values = 0;
  for (const [name, value] of pairs) {
    const problem = stringProblem(name, limits) ?? stringProblem(value, limits);
    if (problem) {
      return `Parameter '${name.slice(0, 100)}' ${problem}`;
    }
    values += value.split(',').length;
  }
  if (values > limits.maxSearchValues) {
    return `The request has ${values} parameter values; the limit is ${limits.maxSearchValues}`;
  }
  return undefined;
}

/** Every route of the plugin that calls it: after body parsing, before the handler. */
export function registerSearchLimits(app: FastifyInstance, limits: SearchLimits): void {
  app.addHook('preValidation', async (request) => {
    const problem = searchLimitProblem(queryPairs(request), limits);
    if (problem) {
      throw new OperationOutcomeError(badRequest(problem));
    }
  });
}
