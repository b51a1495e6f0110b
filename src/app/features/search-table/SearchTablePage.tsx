// /:resourceType (SPEC §2 generic resource search table): loads the type's schema, then the
// table; a name that is not a resource type the server knows shows 'Not found'. The route's lazy
// chunk is this module and what it imports, so other screens never download the grid.
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { NotFoundPanel } from '../../components/NotFoundPanel';
import { PageHeading } from '../../components/PageHeading';
import { SearchErrorPanel } from './SearchErrorPanel';
import { SearchTable } from './SearchTable';
import { readWithoutSchema } from './searchState';
import { pendingTableStart } from './tablePrefetch';
import { provisionalSchema } from './tableSchema';
import { useTableSchema } from './useTableSchema';

/** FHIR resource type names: an upper-case letter, then letters. */
const RESOURCE_TYPE_NAME = /^[A-Z][A-Za-z]{1,63}$/;

function TableSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading table">
      <Skeleton variant="rectangular" height={36} sx={{ mb: 1 }} />
      {Array.from({ length: 8 }, (_, i) => (
        <Skeleton key={i} height={36} />
      ))}
    </Box>
  );
}

/** Whether the route's first requests for this type (./tablePrefetch) are still on their way. */
function useTableStartPending(resourceType: string): boolean {
  const [pending] = useState(() => pendingTableStart(resourceType));
  const [waiting, setWaiting] = useState(pending !== undefined);
  useEffect(() => {
    let active = true;
    void pending?.then(() => active && setWaiting(false));
    return () => {
      active = false;
    };
  }, [pending]);
  return waiting;
}

function KnownTypeTable({ resourceType }: { resourceType: string }) {
  // While the route's first requests are out, the table waits for all their answers and then shows
  // them in one render from the cache, rather than drawing the grid again as each one arrives.
  const waiting = useTableStartPending(resourceType);
  const { loading, error, schema } = useTableSchema(resourceType, waiting);
  const { search } = useLocation();
  // A URL without filters reads the same without the schema: its grid need not wait for it.
  const early = loading && readWithoutSchema(resourceType, search) !== undefined;
  const provisional = useMemo(() => provisionalSchema(resourceType), [resourceType]);
  const shown = schema ?? (early ? provisional : undefined);
  if (!loading && !error && !schema) return <NotFoundPanel what={`The resource type "${resourceType}"`} />;
  return (
    <>
      {/* The heading (and the page title) as every screen has it, before the schema arrives. */}
      <PageHeading title={resourceType} />
      {error && <SearchErrorPanel error={error} />}
      {loading && !early && <TableSkeleton />}
      {shown && <SearchTable key={resourceType} schema={shown} waiting={waiting} />}
    </>
  );
}

export default function SearchTablePage() {
  const { resourceType = '' } = useParams();
  const valid = RESOURCE_TYPE_NAME.test(resourceType);
  return (
    // The page margins of the app's other screens (care-team home, patient chart, health record).
    <Box sx={{ maxWidth: 1200, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 2, sm: 4 } }}>
      {valid ? (
        <KnownTypeTable resourceType={resourceType} />
      ) : (
        <NotFoundPanel what={`The resource type "${resourceType}"`} />
      )}
    </Box>
  );
}
