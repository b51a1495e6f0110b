// Reference parameters (FHIR R4 search §3.1.1.4.9): `Type/id`, a bare id (of any allowed target),
// or an absolute URL; :identifier over the reference's Identifier (token rows under
// `code:identifier`), :not, and :above / :below along a hierarchy. A reference with only an
// identifier still counts as present for :missing.
import type { SearchParameterInfo } from '../../../fhir';
import { Operator } from '../../../fhir/search';
import type { Filter } from '../../../fhir/search';
import type { ReferenceRow } from '../index-rows';
import type { SqlParams } from '../sql-params';
import { invalid, missingMatches, or, probe, rowsOf, unescapeValue, values } from './probe';
import { tokenCondition, tokenMatches } from './token';
import type { FilterContext, SearchKind } from './types';

/** 'Type/id', a literal reference as referenceCondition (and the per-type table plan) match it. */
export const TYPED_REFERENCE = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/;
/** An absolute reference (a scheme first), which referenceCondition matches as written or by its Type/id. */
export const ABSOLUTE_REFERENCE = /^[a-z][a-z0-9+.-]*:/i;
const TYPED_TAIL = /\/([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/;
/** What the edge accepts (FHIR R4 search §3.1.1.4.9): an id, Type/id (optionally versioned) or an absolute URL. */
const ID = /^[A-Za-z0-9\-.]{1,64}$/;
const RELATIVE_REFERENCE = /^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}(?:\/_history\/[A-Za-z0-9\-.]{1,64})?$/;
const ABSOLUTE_URL = /^(?:https?:\/\/|urn:)\S+$/;

/** Reference values: 'Type/id', an id alone, or an absolute URL (matched as written or by its Type/id). */
export function referenceCondition(
  p: SqlParams,
  value: string,
  targets: readonly string[] | undefined,
): string {
  const plain = unescapeValue(value);
  const typed = TYPED_REFERENCE.exec(plain);
  if (typed) {
    return `(t.target_id = ${p.add(typed[2])} AND t.target_type = ${p.add(typed[1])})`;
  }
  if (ABSOLUTE_REFERENCE.test(plain)) {
    const tail = TYPED_TAIL.exec(plain);
    const exact = `t.reference = ${p.add(plain)}`;
    return tail
      ? `(${exact} OR (t.target_id = ${p.add(tail[2])} AND t.target_type = ${p.add(tail[1])} AND t.reference = ${p.add(`${tail[1]}/${tail[2]}`)}))`
      : exact;
  }
  const id = `t.target_id = ${p.add(plain)}`;
  return targets && targets.length > 0 ? `(${id} AND t.target_type = ANY(${p.add(targets)}::text[]))` : id;
}

/** referenceCondition in memory. */
function referenceMatches(row: ReferenceRow, value: string, targets: readonly string[] | undefined): boolean {
  const plain = unescapeValue(value);
  const typed = TYPED_REFERENCE.exec(plain);
  if (typed) {
    return row.targetId === typed[2] && row.targetType === typed[1];
  }
  if (ABSOLUTE_REFERENCE.test(plain)) {
    const tail = TYPED_TAIL.exec(plain);
    return (
      row.reference === plain ||
      (!!tail &&
        row.targetId === tail[2] &&
        row.targetType === tail[1] &&
        row.reference === `${tail[1]}/${tail[2]}`)
    );
  }
  return (
    row.targetId === plain && (!targets || targets.length === 0 || targets.includes(row.targetType ?? ''))
  );
}

/**
 * Reference :above / :below on a hierarchy (FHIR R4 search §3.1.1.5.6): a parameter pointing at its
 * own type (Location.partof, Organization.partof) links each resource to its parent. :below=X
 * matches references to X or to anything under X; :above=X references to X or to X's ancestors.
 * The hierarchy is walked in SQL over the same index rows, so it is always current.
 */
function hierarchySql(
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  filter: Filter,
  param: SearchParameterInfo,
): string {
  const code = filter.code;
  const key = `${code}:${filter.operator}`;
  if (!param.target?.includes(resourceType)) {
    invalid(
      `:${filter.operator} on '${code}' needs a hierarchy: '${code}' does not point at ${resourceType}`,
      key,
    );
  }
  const p = ctx.params;
  const type = p.add(resourceType);
  const linkCode = p.add(code);
  const conditions = values(filter).map((value) => {
    const plain = unescapeValue(value);
    const typed = /^(?:([A-Z][A-Za-z]+)\/)?([A-Za-z0-9\-.]{1,64})$/.exec(plain);
    if (!typed || (typed[1] && typed[1] !== resourceType)) {
      invalid(`:${filter.operator} on '${code}' needs an id or ${resourceType}/id, got '${value}'`, key);
    }
    const step =
      filter.operator === Operator.BELOW
        ? `SELECT h.resource_id FROM search_reference h JOIN tree ON h.target_id = tree.id
           WHERE h.resource_type = ${type} AND h.code = ${linkCode} AND h.target_type = ${type}`
        : `SELECT h.target_id FROM search_reference h JOIN tree ON h.resource_id = tree.id
           WHERE h.resource_type = ${type} AND h.code = ${linkCode} AND h.target_type = ${type}`;
    // UNION (not UNION ALL) drops ids already seen, so a cycle in the data ends the walk.
    return `t.target_id IN (WITH RECURSIVE tree(id) AS (SELECT ${p.add(typed[2])}::text UNION ${step}) SELECT id FROM tree)`;
  });
  return probe(ctx, 'reference', resourceType, alias, code, `t.target_type = ${type} AND ${or(conditions)}`);
}

function referenceSql(
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  filter: Filter,
  param: SearchParameterInfo,
): string {
  const code = filter.code;
  if (filter.operator === Operator.MISSING) {
    // A reference without a literal target still counts as present when it has an identifier.
    const ref = probe(ctx, 'reference', resourceType, alias, code);
    const ident = probe(ctx, 'token', resourceType, alias, `${code}:identifier`);
    if (filter.value !== 'true' && filter.value !== 'false') {
      invalid(`:missing on '${code}' must be true or false`, `${code}:missing`);
    }
    return filter.value === 'true' ? `NOT (${ref} OR ${ident})` : `(${ref} OR ${ident})`;
  }
  if (filter.operator === Operator.IDENTIFIER) {
    return probe(
      ctx,
      'token',
      resourceType,
      alias,
      `${code}:identifier`,
      or(values(filter).map((v) => tokenCondition(ctx.params, v, code))),
    );
  }
  if (filter.operator === Operator.ABOVE || filter.operator === Operator.BELOW) {
    return hierarchySql(ctx, resourceType, alias, filter, param);
  }
  if (filter.operator !== Operator.EQUALS && filter.operator !== Operator.NOT) {
    invalid(
      `Modifier ':${filter.operator}' is not supported on reference parameter '${code}'`,
      `${code}:${filter.operator}`,
    );
  }
  const exists = probe(
    ctx,
    'reference',
    resourceType,
    alias,
    code,
    or(values(filter).map((v) => referenceCondition(ctx.params, v, param.target))),
  );
  return filter.operator === Operator.NOT ? `NOT ${exists}` : exists;
}

export const reference: SearchKind = {
  modifiers: [Operator.MISSING, Operator.IDENTIFIER, Operator.ABOVE, Operator.BELOW, Operator.NOT],
  prefixes: false,
  valueProblem: (value) =>
    ID.test(value) || RELATIVE_REFERENCE.test(value) || ABSOLUTE_URL.test(value)
      ? undefined
      : 'an id, Type/id or an absolute URL',
  sql: referenceSql,
  // :above / :below walk a hierarchy of other rows; in memory they compare as plain equality.
  matches({ rows }, filter, param) {
    const identifiers = rowsOf(rows.token, `${filter.code}:identifier`);
    const own = rowsOf(rows.reference, filter.code);
    const all = values(filter);
    if (filter.operator === Operator.MISSING) {
      return missingMatches(filter, own.length > 0 || identifiers.length > 0);
    }
    if (filter.operator === Operator.IDENTIFIER) {
      return identifiers.some((row) => all.some((v) => tokenMatches(row, v)));
    }
    const found = own.some((row) => all.some((v) => referenceMatches(row, v, param.target)));
    return filter.operator === Operator.NOT ? !found : found;
  },
  sortKey: { table: 'reference', ascending: 'reference', descending: 'reference' },
};
