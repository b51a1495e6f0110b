// Canonical resources (ValueSet, CodeSystem, StructureDefinition) by URL: the caller's own stored
// ones first (what they may see, newest first), then the FHIR definitions'. Stored lookups use the
// caller's AccessPolicy in SQL (search/policy-sql.ts), so one project's profiles never serve another.
import type { Resource } from '@medplum/fhirtypes';
import { withoutVersion } from '../../fhir/value-set-expansion';
import type { Queryable } from '../db';
import type { RepositoryContext } from '../repo';
import { visibleSql } from '../search/filter-sql';
import { continuingParams } from '../search/policy-sql';

export async function findStoredCanonical<T extends Resource>(
  db: Queryable,
  context: RepositoryContext,
  resourceType: 'ValueSet' | 'CodeSystem' | 'StructureDefinition',
  canonical: string,
): Promise<T | undefined> {
  const bar = canonical.indexOf('|');
  const url = withoutVersion(canonical);
  const version = bar < 0 ? undefined : canonical.slice(bar + 1);
  const params = continuingParams([resourceType, url]);
  const where = ['r.resource_type = $1', 'NOT r.deleted', "r.content->>'url' = $2"];
  if (version) {
    where.push(`r.content->>'version' = ${params.add(version)}`);
  }
  where.push(...visibleSql(context, resourceType, 'r', params));
  const { rows } = await db.query<{ content: T }>(
    `SELECT r.content FROM resource r WHERE ${where.join(' AND ')} ORDER BY r.seq DESC LIMIT 1`,
    params.values,
  );
  return rows[0]?.content;
}
