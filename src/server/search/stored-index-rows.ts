// The index rows stored for a resource: its search parameters' (extractIndexRows) and its
// `_text` / `_content` rows. Every writer of the index tables (single writes, a transaction
// Bundle's bulk write, reindex) takes its rows from here, so none can leave the text index behind.
import type { Resource } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { extractIndexRows } from './extract-index-rows';
import type { IndexRows } from './index-rows';
import type { IndexedResource } from './index-writer';
import { textRowsOf } from './text-index';

function rowCount(rows: IndexRows): number {
  return Object.values(rows).reduce((sum: number, kind: unknown[]) => sum + kind.length, 0);
}

/**
 * The rows of each resource. With `maxIndexValues` (a caller's write), a resource that would
 * need more rows is refused with 400: one request may not make the index do unbounded work.
 */
export function indexedResources(resources: readonly Resource[], maxIndexValues?: number): IndexedResource[] {
  return resources.map((resource) => {
    const rows = extractIndexRows(resource);
    rows.text = textRowsOf(resource);
    const count = maxIndexValues === undefined ? 0 : rowCount(rows);
    if (maxIndexValues !== undefined && count > maxIndexValues) {
      throw new OperationOutcomeError(
        badRequest(
          `This ${resource.resourceType} would need ${count} search index values; the limit is ${maxIndexValues} ` +
            '(MAX_INDEX_VALUES): store fewer repeated elements in one resource',
        ),
      );
    }
    return { resourceType: resource.resourceType, id: resource.id as string, rows };
  });
}
