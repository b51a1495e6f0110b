// Reads one page of an export: the current, visible resources of one type in id order after a
// cursor (keyset paging, so page 1,000 costs what page 1 does), as the NDJSON lines to write.
// Filters and the requester's access rules are the search engine's own SQL conditions, inside
// the same query: a patient's page only ever holds her compartment.
import type { Resource } from '@medplum/fhirtypes';
import type { Filter } from '../../fhir/search';
import { Operator } from '../../fhir/search';
import type { Database } from '../db';
import { candidateEntries, secretFields } from '../access/access-control';
import type { RepositoryContext } from '../repo';
import { redactFor } from '../repo/policy-match';
import { filterConditions, visibleCondition } from '../search/filter-sql';
import type { FilterContext } from '../search/filter-sql';
import { SqlParams } from '../search/sql-params';
import type { ExportLevel } from './job-store';

export interface ExportScope {
  context: RepositoryContext;
  level: ExportLevel;
  /** Patient/{id} references the export is limited to (a Group's members, the patient parameter). */
  patients: readonly string[] | undefined;
  since: string | undefined;
  transactionTime: string;
}

export interface ExportPage {
  /** One JSON document per resource, without newlines. */
  lines: string[];
  /** The last id of the page: the cursor of the next one. */
  lastId: string | undefined;
}

function scopeFilters(scope: ExportScope): Filter[] {
  // Nothing written after the kick-off: each resource at most once, as of transactionTime.
  const filters: Filter[] = [
    { code: '_lastUpdated', operator: Operator.LESS_THAN_OR_EQUALS, value: scope.transactionTime },
  ];
  if (scope.since) {
    filters.push({ code: '_lastUpdated', operator: Operator.GREATER_THAN, value: scope.since });
  }
  if (scope.patients) {
    filters.push({ code: '_compartment', operator: Operator.EQUALS, value: scope.patients.join(',') });
  }
  return filters;
}

export async function readExportPage(
  db: Database,
  scope: ExportScope,
  resourceType: string,
  after: string | undefined,
  count: number,
): Promise<ExportPage> {
  const params = new SqlParams();
  const ctx: FilterContext = { params, context: scope.context, valueSets: new Map(), depth: 0 };
  const conditions = [`r.resource_type = ${params.add(resourceType)}`, 'NOT r.deleted'];
  conditions.push(...filterConditions(ctx, resourceType, 'r', scopeFilters(scope)));
  if (scope.level === 'patient' && !scope.patients) {
    // Patient/$export: whatever lies in some Patient compartment (the caller's rules narrow it further).
    conditions.push(`cardinality(r.compartments) > 0`);
  }
  conditions.push(...visibleCondition(ctx, resourceType, 'r'));
  if (after !== undefined) {
    conditions.push(`r.id > ${params.add(after)}`);
  }
  const secrets = secretFields(resourceType);
  const content = secrets ? `(r.content - ${params.add(secrets)}::text[])` : 'r.content';
  const sql = `SELECT r.id, ${content}::text AS line FROM resource r WHERE ${conditions.join(' AND ')}
     ORDER BY r.id LIMIT ${params.add(count)}`;
  const rows = await db.transaction(async (tx) => {
    // Only the primary key's order keeps every page as cheap as the first: with statistics older
    // than a bulk load (PGlite never analyzes on its own) the planner would sort all matches per page.
    await tx.query('SET LOCAL enable_sort = off');
    return (await tx.query<{ id: string; line: string }>(sql, params.values)).rows;
  });
  const hidden = hidesFieldsOf(scope.context, resourceType);
  return {
    lines: rows.map((row) =>
      hidden ? JSON.stringify(redactFor(scope.context, JSON.parse(row.line) as Resource)) : row.line,
    ),
    lastId: rows.at(-1)?.id,
  };
}

/**
 * Whether some entry the requester may read this type through has hiddenFields: then each line is
 * parsed and loses the fields of the entry its resource satisfies, as a read by id would.
 */
function hidesFieldsOf(context: RepositoryContext, resourceType: string): boolean {
  const access = context.access;
  if (!access || access.superAdmin) return false;
  return [
    ...candidateEntries(access, resourceType, 'read'),
    ...candidateEntries(access, resourceType, 'search'),
  ].some((entry) => (entry.hiddenFields?.length ?? 0) > 0);
}
