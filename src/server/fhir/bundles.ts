// Bundles the API answers with: the plain newest-first list (a searchset, honestly labelled) and
// history.
import type { Bundle, BundleEntry, BundleLink, OperationOutcome, Resource } from '@medplum/fhirtypes';
import type { HistoryRecord, Page, PageRequest } from '../repo';
import { pageQuery } from './paging';

function pageLinks(url: string, page: PageRequest, hasMore: boolean): BundleLink[] {
  const links: BundleLink[] = [{ relation: 'self', url: url + pageQuery(page) }];
  if (hasMore) {
    links.push({
      relation: 'next',
      url: url + pageQuery({ count: page.count, offset: page.offset + page.count }),
    });
  }
  if (page.offset > 0) {
    const previous = { count: page.count, offset: Math.max(0, page.offset - page.count) };
    links.push({ relation: 'previous', url: url + pageQuery(previous) });
  }
  return links;
}

export const LIST_NOTICE: OperationOutcome = {
  resourceType: 'OperationOutcome',
  id: 'search-not-implemented',
  issue: [
    {
      severity: 'information',
      code: 'informational',
      details: {
        text: 'Search is not implemented yet: this is the newest resources of the type, newest first; only _count and _offset are supported',
      },
    },
  ],
};

/** `typeUrl` is the absolute URL of the type, e.g. http://localhost:8103/fhir/R4/Patient. */
export function newestListBundle(
  fhirBase: string,
  typeUrl: string,
  page: PageRequest,
  result: Page<Resource>,
): Bundle {
  const entry: BundleEntry[] = result.items.map((resource) => ({
    fullUrl: `${fhirBase}${resource.resourceType}/${resource.id}`,
    resource,
    search: { mode: 'match' },
  }));
  entry.push({ resource: LIST_NOTICE, search: { mode: 'outcome' } });
  return { resourceType: 'Bundle', type: 'searchset', link: pageLinks(typeUrl, page, result.hasMore), entry };
}

export function historyBundle(
  fhirBase: string,
  url: string,
  page: PageRequest,
  result: Page<HistoryRecord>,
): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'history',
    link: pageLinks(url, page, result.hasMore),
    entry: result.items.map((record) => {
      const path = `${record.resourceType}/${record.id}`;
      const entry: BundleEntry = {
        fullUrl: fhirBase + path,
        request: { method: record.method, url: record.method === 'POST' ? record.resourceType : path },
        response: {
          status: record.method === 'POST' ? '201' : '200',
          etag: `W/"${record.versionId}"`,
          lastModified: record.lastUpdated,
        },
      };
      if (record.resource) {
        entry.resource = record.resource;
      }
      return entry;
    }),
  };
}
