// Reads what an export writes (SPEC §2 Export, §9 export limit 1000): the table's search (its filters
// and sort, not its page) from offset 0, page after page from the server, until the matches end or
// 1000 records are read. Pages are 100 rows, so an export is never limited to what the grid shows.
import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { CacheMode } from '../../../client/request';
import type { SearchRequest } from '../../../fhir/search';

export const EXPORT_LIMIT = 1000;
export const EXPORT_PAGE_SIZE = 100;

export interface ExportSearcher {
  search(request: SearchRequest, query?: undefined, options?: { cache?: CacheMode }): PromiseLike<Bundle>;
}

/** `fields` narrows the rows (CSV); without it whole resources are read (a Transaction Bundle). */
export async function readExportRows(
  client: ExportSearcher,
  request: SearchRequest,
  fields: readonly string[] | undefined,
  limit: number = EXPORT_LIMIT,
): Promise<Resource[]> {
  const rows: Resource[] = [];
  let offset = 0;
  while (rows.length < limit) {
    const count = Math.min(EXPORT_PAGE_SIZE, limit - rows.length);
    const page: SearchRequest = { ...request, offset, count, total: 'none' };
    if (fields) page.fields = [...fields];
    else delete page.fields;
    const bundle = await client.search(page, undefined, { cache: 'no-cache' });
    const resources = (bundle.entry ?? [])
      .filter((entry) => entry.search?.mode !== 'include')
      .flatMap((entry) => (entry.resource ? [entry.resource] : []));
    rows.push(...resources);
    if (resources.length < count) break;
    offset += resources.length;
  }
  return rows.slice(0, limit);
}
