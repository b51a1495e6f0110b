// A resource's versions (GET {type}/{id}/_history, SPEC §7), newest first,
// each with its date, what changed (created, updated, deleted) and its author, and a link to view
// that version. Pages of HISTORY_PAGE_SIZE, older ones on request while the Bundle has a next link.
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';
import { useState } from 'react';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { LoadError, LoadingState } from '../../components/ListStates';
import { ResourceLink } from '../../components/ResourceLink';
import { useBloomClient } from '../../session/BloomClientContext';
import { ResourceProblem } from './ResourceProblem';
import { useLoaded } from './useLoaded';
import { referenceText } from './valueText';

export const HISTORY_PAGE_SIZE = 50;

export function versionHref(resourceType: string, id: string, versionId: string): string {
  return `/${resourceType}/${id}/_history/${versionId}`;
}

export interface VersionRow {
  readonly versionId: string | undefined;
  readonly date: string | undefined;
  readonly change: 'Created' | 'Updated' | 'Deleted';
  readonly resource: Resource | undefined;
}

/** The rows of a history Bundle page; a deletion has no resource, its date comes from the response. */
export function versionRows(bundle: Bundle<Resource>): VersionRow[] {
  return (bundle.entry ?? []).map((entry: BundleEntry<Resource>) => {
    const method = entry.request?.method;
    const etag = /^W\/"(.+)"$/.exec(entry.response?.etag ?? '')?.[1];
    return {
      versionId: entry.resource?.meta?.versionId ?? etag,
      date: entry.resource?.meta?.lastUpdated ?? entry.response?.lastModified,
      change: method === 'DELETE' ? 'Deleted' : method === 'POST' ? 'Created' : 'Updated',
      resource: entry.resource,
    };
  });
}

function hasNext(bundle: Bundle): boolean {
  return (bundle.link ?? []).some((link) => link.relation === 'next');
}

export function ResourceHistory({ resourceType, id }: { resourceType: string; id: string }) {
  const client = useBloomClient();
  const pageUrl = (offset: number) =>
    `${client.fhirUrl(resourceType, id, '_history')}?_count=${HISTORY_PAGE_SIZE}&_offset=${offset}`;
  // Never from the cache: a version written in another tab must show.
  const first = useLoaded(`${resourceType}/${id}`, () =>
    client.get<Bundle<Resource>>(pageUrl(0), { cache: 'no-cache' }),
  );
  const [older, setOlder] = useState<{ rows: VersionRow[]; more: boolean }>();
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<Error>();

  if (first.status === 'loading') return <LoadingState label="Loading history" />;
  if (first.status === 'error') return <ResourceProblem what="The history" error={first.error} />;
  const rows = [...versionRows(first.value), ...(older?.rows ?? [])];
  const more = older ? older.more : hasNext(first.value);

  const loadOlder = () => {
    setLoadingOlder(true);
    setOlderError(undefined);
    client.get<Bundle<Resource>>(pageUrl(rows.length), { cache: 'no-cache' }).then(
      (bundle) => {
        setOlder({ rows: [...(older?.rows ?? []), ...versionRows(bundle)], more: hasNext(bundle) });
        setLoadingOlder(false);
      },
      (err: unknown) => {
        setOlderError(err instanceof Error ? err : new Error(String(err)));
        setLoadingOlder(false);
      },
    );
  };

  return (
    <>
      <Typography component="h2" variant="h6" sx={{ mt: 2, mb: 1 }}>
        History
      </Typography>
      <Table size="small" aria-label="Versions">
        <TableHead>
          <TableRow>
            <TableCell>Version</TableCell>
            <TableCell>Change</TableCell>
            <TableCell>Author</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, index) => {
            const author = row.resource?.meta?.author;
            const date = <DateTimeDisplay value={row.date} />;
            return (
              <TableRow key={row.versionId ?? index}>
                <TableCell>
                  {row.resource && row.versionId ? (
                    <ResourceLink to={versionHref(resourceType, id, row.versionId)}>{date}</ResourceLink>
                  ) : (
                    date
                  )}
                </TableCell>
                <TableCell>{row.change}</TableCell>
                <TableCell>
                  {author ? <ResourceLink to={author}>{referenceText(author)}</ResourceLink> : ''}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {olderError && <LoadError error={olderError} onRetry={loadOlder} />}
      {more && (
        <Button onClick={loadOlder} loading={loadingOlder} sx={{ mt: 1 }}>
          Load older versions
        </Button>
      )}
    </>
  );
}
