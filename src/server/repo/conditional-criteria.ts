// If-None-Exist for conditional create, before the search engine exists: only `_id` and
// `identifier` (token: system|value, value, system| or |value) are understood; anything else is a
// 400 that says so, rather than a silent match-everything.
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { SqlValue } from '../db';

export interface SqlCriteria {
  /** SQL conditions on table `resource`, joined with AND, using $n placeholders from `firstParam`. */
  where: string[];
  params: SqlValue[];
}

const SUPPORTED = ['_id', 'identifier'];

export function parseConditionalCriteria(query: string, firstParam: number): SqlCriteria {
  const search = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  const where: string[] = [];
  const params: SqlValue[] = [];
  const placeholder = (value: SqlValue): string => {
    params.push(value);
    return `$${firstParam + params.length - 1}`;
  };
  for (const [name, value] of search) {
    if (!SUPPORTED.includes(name)) {
      throw new OperationOutcomeError(
        badRequest(
          `Conditional create supports only ${SUPPORTED.join(' and ')} until search is implemented; unsupported parameter '${name}'`,
        ),
      );
    }
    if (!value) {
      throw new OperationOutcomeError(badRequest(`Conditional create parameter '${name}' has no value`));
    }
    // A comma separates alternatives (OR), as in FHIR search.
    const alternatives = value.split(',').map((alternative) => {
      if (name === '_id') {
        return `id = ${placeholder(alternative)}`;
      }
      const { path, vars } = identifierPath(alternative);
      return `jsonb_path_exists(content, ${placeholder(path)}::jsonpath, ${placeholder(JSON.stringify(vars))}::jsonb)`;
    });
    where.push(alternatives.length === 1 ? alternatives[0] : `(${alternatives.join(' OR ')})`);
  }
  if (where.length === 0) {
    throw new OperationOutcomeError(badRequest('If-None-Exist has no search parameters'));
  }
  return { where, params };
}

function identifierPath(token: string): { path: string; vars: Record<string, string> } {
  const bar = token.indexOf('|');
  if (bar < 0) {
    return { path: '$.identifier[*] ? (@.value == $value)', vars: { value: token } };
  }
  const system = token.slice(0, bar);
  const value = token.slice(bar + 1);
  if (!system && !value) {
    throw new OperationOutcomeError(
      badRequest("Conditional create identifier '|' has no system and no value"),
    );
  }
  if (!system) {
    return { path: '$.identifier[*] ? (@.value == $value && !(exists(@.system)))', vars: { value } };
  }
  if (!value) {
    return { path: '$.identifier[*] ? (@.system == $system)', vars: { system } };
  }
  return { path: '$.identifier[*] ? (@.system == $system && @.value == $value)', vars: { system, value } };
}
