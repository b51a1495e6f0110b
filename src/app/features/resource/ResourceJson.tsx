// A resource's JSON, as stored, in a labelled read-only block.
import Box from '@mui/material/Box';
import type { Resource } from '@medplum/fhirtypes';
import { useId } from 'react';

export function ResourceJson({ resource }: { resource: Resource }) {
  const labelId = useId();
  return (
    <Box>
      <Box id={labelId} component="h2" sx={{ typography: 'h6', mt: 2, mb: 1 }}>
        JSON
      </Box>
      <Box
        component="pre"
        aria-labelledby={labelId}
        tabIndex={0}
        sx={{
          m: 0,
          p: 2,
          bgcolor: 'grey.100',
          borderRadius: 1,
          overflow: 'auto',
          maxHeight: '70vh',
          fontSize: '0.85rem',
          '&:focus-visible': { outline: 2, outlineColor: 'primary.main' },
        }}
      >
        {JSON.stringify(resource, null, 2)}
      </Box>
    </Box>
  );
}
