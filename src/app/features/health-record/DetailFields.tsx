// Label/value pairs of a detail screen as a description list; empty values are left out.
import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

export function DetailFields({ fields }: { fields: ReadonlyArray<readonly [string, ReactNode]> }) {
  const shown = fields.filter(([, value]) => value !== '' && value !== null && value !== undefined);
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: 'minmax(120px, max-content) 1fr',
        columnGap: 3,
        rowGap: 1,
        my: 2,
      }}
    >
      {shown.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ fontWeight: 600, color: 'text.secondary' }}>
            {label}
          </Box>
          <Box component="dd" sx={{ m: 0 }}>
            {value}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
