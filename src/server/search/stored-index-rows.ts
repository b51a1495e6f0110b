// The index rows stored for a resource: its search parameters' (extractIndexRows) and its
// `_text` / `_content` rows. Every writer of the index tables (single writes, a transaction
// Bundle's bulk write, reindex) takes its rows from here, so none can leave the text index behind.
import type { Resource } from '@medplum/fhirtypes';
import { extractIndexRows } from './extract-index-rows';
import type { IndexedResource } from './index-writer';
import { textRowsOf } from './text-index';

export function indexedResources(resources: readonly Resource[]): IndexedResource[] {
  return resources.map((resource) => {
    const rows = extractIndexRows(resource);
    rows.text = textRowsOf(resource);
    return { resourceType: resource.resourceType, id: resource.id as string, rows };
  });
}
