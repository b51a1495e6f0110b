// A resource's versions (issue #9 "its history": GET {type}/{id}/_history, SPEC §7), newest first,
// each with its date and author and a link to view that version.
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { LoadingState } from '../../components/ListStates';
import { ResourceLink } from '../../components/ResourceLink';
import { useBloomClient } from '../../session/BloomClientContext';
import { ResourceProblem } from './ResourceProblem';
import { useLoaded } from './useLoaded';
import { referenceText } from './valueText';

export function versionHref(resourceType: string, id: string, versionId: string): string {
  return `/${resourceType}/${id}/_history/${versionId}`;
}

export function ResourceHistory({ resourceType, id }: { resourceType: string; id: string }) {
  const client = useBloomClient();
  // Never from the cache: a version written in another tab must show.
  const history = useLoaded(`${resourceType}/${id}`, () =>
    client.readHistory<Resource>(resourceType as Resource['resourceType'], id, { cache: 'no-cache' }),
  );
  if (history.status === 'loading') return <LoadingState label="Loading history" />;
  if (history.status === 'error') return <ResourceProblem what="The history" error={history.error} />;
  const versions = versionsOf(history.value);
  return (
    <>
      <Typography component="h2" variant="h6" sx={{ mt: 2, mb: 1 }}>
        History
      </Typography>
      <Table size="small" aria-label="Versions">
        <TableHead>
          <TableRow>
            <TableCell>Version</TableCell>
            <TableCell>Date</TableCell>
            <TableCell>Author</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {versions.map((version, index) => {
            const versionId = version.meta?.versionId ?? '';
            const author = version.meta?.author;
            return (
              <TableRow key={versionId || index}>
                <TableCell>
                  <ResourceLink to={versionHref(resourceType, id, versionId)}>
                    {`Version ${versions.length - index}`}
                  </ResourceLink>
                </TableCell>
                <TableCell>
                  <DateTimeDisplay value={version.meta?.lastUpdated} />
                </TableCell>
                <TableCell>
                  {author ? <ResourceLink to={author}>{referenceText(author)}</ResourceLink> : 'Unknown'}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </>
  );
}

/** The versions a history Bundle holds (deleted versions have no resource and are left out). */
export function versionsOf(bundle: Bundle<Resource>): Resource[] {
  return (bundle.entry ?? [])
    .map((entry) => entry.resource)
    .filter((resource): resource is Resource => resource !== undefined);
}
