// /:resourceType (SPEC §2 generic resource search table): loads the type's schema, then the
// table; a name that is not a resource type the server knows shows 'Not found'. The route's lazy
// chunk is this module and what it imports, so other screens never download the grid.
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { NotFoundPanel } from '../../components/NotFoundPanel';
import { SearchErrorPanel } from './SearchErrorPanel';
import { SearchTable } from './SearchTable';
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
  if (error) return <SearchErrorPanel error={error} />;
  if (loading) return <TableSkeleton />;
  if (!schema) return <NotFoundPanel what={`The resource type "${resourceType}"`} />;
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {resourceType}
      </Typography>
      <SearchTable key={resourceType} schema={schema} />
    </>
  );
}

export default function SearchTablePage() {
  const { resourceType = '' } = useParams();
  const valid = RESOURCE_TYPE_NAME.test(resourceType);
  useEffect(() => {
    document.title = `${valid ? resourceType : 'Not found'} · Bloom`;
  }, [resourceType, valid]);
  return (
    <Box sx={{ py: 2 }}>
      {valid ? (
        <KnownTypeTable resourceType={resourceType} />
      ) : (
        <NotFoundPanel what={`The resource type "${resourceType}"`} />
      )}
    </Box>
  );
}
