// /:resourceType (SPEC §2 generic resource search table): loads the type's schema, then the
// table; a name that is not a resource type the server knows shows 'Not found'. The route's lazy
// chunk is this module and what it imports, so other screens never download the grid.
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useLocation, useParams } from 'react-router-dom';
import { NotFoundPanel } from '../../components/NotFoundPanel';
import { PageHeading } from '../../components/PageHeading';
import { SearchErrorPanel } from './SearchErrorPanel';
import { SearchTable } from './SearchTable';
import { readWithoutSchema } from './searchState';
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

function KnownTypeTable({ resourceType }: { resourceType: string }) {
  const { loading, error, schema } = useTableSchema(resourceType);
  const { search } = useLocation();
  // A URL without filters reads the same without the schema: its rows need not wait for it.
  const early = loading && readWithoutSchema(resourceType, search) !== undefined;
  const shown = schema ?? (early ? provisionalSchema(resourceType) : undefined);
  if (!loading && !error && !schema) return <NotFoundPanel what={`The resource type "${resourceType}"`} />;
  return (
    <>
      {/* The heading (and the page title) as every screen has it, before the schema arrives. */}
      <PageHeading title={resourceType} />
      {error && <SearchErrorPanel error={error} />}
      {loading && !early && <TableSkeleton />}
      {shown && <SearchTable key={resourceType} schema={shown} />}
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
