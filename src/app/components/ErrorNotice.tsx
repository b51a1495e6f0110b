// An error message box (role alert) for the app shell's error fallbacks: drawn with a Box rather than
// MUI's Alert, so the landing page's download does not carry the Alert and its icons,
// and it still shows when a chunk could not be downloaded.
import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

export function ErrorNotice({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <Box
      role="alert"
      sx={{
        px: 2,
        py: 1.5,
        borderRadius: 1,
        border: 1,
        borderColor: 'error.main',
        bgcolor: '#fdeeed',
        color: 'text.primary',
        overflowWrap: 'anywhere',
      }}
    >
      {title && (
        <Box component="p" sx={{ m: 0, mb: 0.5, fontWeight: 600, color: 'error.main' }}>
          {title}
        </Box>
      )}
      {children}
    </Box>
  );
}
