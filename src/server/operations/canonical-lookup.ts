// Canonical resources (ValueSet, CodeSystem, StructureDefinition) by URL: the caller's own stored
// ones first (what they may see, newest first), then the FHIR definitions'. Stored lookups use the
// Repository's visibility rules in SQL, so one project's profiles never serve another.
import type { Resource } from '@medplum/fhirtypes';
import { withoutVersion } from '../../fhir/value-set-expansion';
import type { Database } from '../db';
import type { RepositoryContext } from '../repo';
import { typeRights, visibilitySql } from '../access/access-control';

export async function findStoredCanonical<T extends Resource>(
  db: Database,
  context: RepositoryContext,
  resourceType: 'ValueSet' | 'CodeSystem' | 'StructureDefinition',
  canonical: string,
): Promise<T | undefined> {
  if (!typeRights(context.access, resourceType).read) {
    return undefined;
  }
  const bar = canonical.indexOf('|');
  const url = withoutVersion(canonical);
  const version = bar < 0 ? undefined : canonical.slice(bar + 1);
  const params: string[] = [resourceType, url];
  const where = ['resource_type = $1', 'NOT deleted', "content->>'url' = $2"];
  if (version) {
    params.push(version);
    where.push(`content->>'version' = $${params.length}`);
  }
  const visible = visibilitySql(context, '', params.length + 1);
  const { rows } = await db.query<{ content: T }>(
    `SELECT content FROM resource WHERE ${[...where, ...visible.where].join(' AND ')} ORDER BY seq DESC LIMIT 1`,
    [...params, ...visible.params],
  );
  return rows[0]?.content;
}
