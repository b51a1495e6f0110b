// The history Bundle (searchset Bundles are built in ../search/bundle.ts).
import type { Bundle, BundleEntry, BundleLink } from '@medplum/fhirtypes';
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
