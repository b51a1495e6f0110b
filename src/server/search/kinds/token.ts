// Token parameters (FHIR R4 search §3.1.1.4.4): `code`, `system|code`, `|code` (no system) and
// `system|` (any code of the system), with :not, :text, :of-type, :in / :not-in (value sets) and
// :above / :below (subsumption), over the search_token rows.
import { Operator } from '../../../fhir/search';
import type { Filter } from '../../../fhir/search';
import type { TokenRow } from '../index-rows';
import { subsumptionKey } from '../code-hierarchy';
import type { SubsumptionDirection } from '../code-hierarchy';
import type { SqlParams } from '../sql-params';
import {
  invalid,
  missingMatches,
  missingProbe,
  or,
  probe,
  rowsOf,
  splitBar,
  textCondition,
  textMatches,
  unescapeValue,
  values,
} from './probe';
import type { FilterContext, SearchKind } from './types';

export function tokenCondition(p: SqlParams, value: string, parameter: string): string {
  const parts = splitBar(value);
  if (parts.length === 1) {
    return `t.value = ${p.add(parts[0])}`;
  }
  if (parts.length !== 2) {
    invalid(`Token '${value}' of '${parameter}' has more than one '|'`, parameter);
  }
  const [system, code] = parts;
  if (!system && !code) {
    invalid(`Token '|' of '${parameter}' has neither system nor code`, parameter);
  }
  if (!system) {
    return `(t.system IS NULL AND t.value = ${p.add(code)})`;
  }
  if (!code) {
    return `t.system = ${p.add(system)}`;
  }
  return `(t.system = ${p.add(system)} AND t.value = ${p.add(code)})`;
}

/** tokenCondition in memory: code, system|code, |code (no system), system| (any code). */
export function tokenMatches(row: TokenRow, value: string): boolean {
  const parts = splitBar(value);
  if (parts.length === 1) return row.value === parts[0];
  const [system, code] = parts;
  if (!system) return row.system === null && row.value === code;
  if (!code) return row.system === system;
  return row.system === system && row.value === code;
}

/** :of-type=typeSystem|typeCode|value: the parts, or a 400. */
function ofTypeParts(value: string, parameter: string): string[] {
  const parts = splitBar(value);
  if (parts.length !== 3 || !parts[1] || !parts[2]) {
    invalid(`:of-type on '${parameter}' needs system|code|value, got '${value}'`, parameter);
  }
  return parts;
}

/** :of-type against the rows indexed under `code:of-type`. */
function ofTypeCondition(p: SqlParams, value: string, parameter: string): string {
  const parts = ofTypeParts(value, parameter);
  const system = parts[0] ? `t.system = ${p.add(parts[0])}` : 't.system IS NULL';
  return `(${system} AND t.value = ${p.add(`${parts[1]}|${parts[2]}`)})`;
}

function ofTypeMatches(row: TokenRow, value: string, parameter: string): boolean {
  const parts = ofTypeParts(value, parameter);
  return (
    (parts[0] ? row.system === parts[0] : row.system === null) && row.value === `${parts[1]}|${parts[2]}`
  );
}

function unsupported(filter: Filter): never {
  return invalid(
    `Modifier ':${filter.operator}' is not supported on token parameter '${filter.code}'`,
    `${filter.code}:${filter.operator}`,
  );
}

function tokenSql(ctx: FilterContext, resourceType: string, alias: string, filter: Filter): string {
  const p = ctx.params;
  const code = filter.code;
  switch (filter.operator) {
    case Operator.MISSING:
      return missingProbe(ctx, 'token', resourceType, alias, filter);
    case Operator.EQUALS:
      return probe(
        ctx,
        'token',
        resourceType,
        alias,
        code,
        or(values(filter).map((v) => tokenCondition(p, v, code))),
      );
    case Operator.NOT:
      // :not — resources with no matching token (including those with none at all).
      return `NOT ${probe(ctx, 'token', resourceType, alias, code, or(values(filter).map((v) => tokenCondition(p, v, code))))}`;
    case Operator.TEXT:
      return probe(
        ctx,
        'token',
        resourceType,
        alias,
        code,
        or(values(filter).map((v) => textCondition(p, 't.text', unescapeValue(v)))),
      );
    case Operator.OF_TYPE:
      return probe(
        ctx,
        'token',
        resourceType,
        alias,
        `${code}:of-type`,
        or(values(filter).map((v) => ofTypeCondition(p, v, code))),
      );
    case Operator.ABOVE:
    case Operator.BELOW: {
      // Subsumption: the system's codes under (or over) the value's, resolved by code-hierarchy.ts.
      const conditions = values(filter).map((v) => {
        const codes = ctx.valueSets.get(subsumptionKey(filter.operator as SubsumptionDirection, v));
        if (!codes) {
          invalid(
            `:${filter.operator} on '${code}' needs system|code of a known code system`,
            `${code}:${filter.operator}`,
          );
        }
        return `(t.system = ${p.add(splitBar(v)[0])} AND t.value = ANY(${p.add(codes)}::text[]))`;
      });
      return probe(ctx, 'token', resourceType, alias, code, or(conditions));
    }
    case Operator.IN:
    case Operator.NOT_IN: {
      const codes = values(filter).flatMap((url) => ctx.valueSets.get(url) ?? []);
      const exists = probe(ctx, 'token', resourceType, alias, code, `t.value = ANY(${p.add(codes)}::text[])`);
      return filter.operator === Operator.IN ? exists : `NOT ${exists}`;
    }
    default:
      return unsupported(filter);
  }
}

export const token: SearchKind = {
  modifiers: [
    Operator.MISSING,
    Operator.TEXT,
    Operator.NOT,
    Operator.ABOVE,
    Operator.BELOW,
    Operator.IN,
    Operator.NOT_IN,
    Operator.OF_TYPE,
  ],
  prefixes: false,
  /** `code`, `system|code`, `|code` or `system|`: at most one separating bar and not only a bar. */
  valueProblem(value) {
    const bars = value.split('|').length - 1;
    return bars > 1 || value === '|' ? 'code, system|code, |code or system|' : undefined;
  },
  sql: tokenSql,
  // Value sets and code systems need the database: criteria.ts refuses :in / :not-in, and
  // :above / :below are refused here.
  matches({ rows }, filter) {
    const own = rowsOf(rows.token, filter.code);
    const all = values(filter);
    switch (filter.operator) {
      case Operator.MISSING:
        return missingMatches(filter, own.length > 0);
      case Operator.EQUALS:
        return own.some((row) => all.some((v) => tokenMatches(row, v)));
      case Operator.NOT:
        return !own.some((row) => all.some((v) => tokenMatches(row, v)));
      case Operator.TEXT:
        return own.some((row) => all.some((v) => textMatches(row.text, unescapeValue(v))));
      case Operator.OF_TYPE:
        return rowsOf(rows.token, `${filter.code}:of-type`).some((row) =>
          all.some((v) => ofTypeMatches(row, v, filter.code)),
        );
      default:
        return unsupported(filter);
    }
  },
  sortKey: { table: 'token', ascending: 'value', descending: 'value' },
};
