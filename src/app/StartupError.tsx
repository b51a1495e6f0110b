// Shown when the app cannot learn where its server is (no usable /config.json): a clear message, not a blank page.
import Box from '@mui/material/Box';
import { AppTheme } from './components/AppTheme';
import { ErrorNotice } from './components/ErrorNotice';

export function StartupError({ message }: { message: string }) {
  return (
    <AppTheme>
      <Box component="main" sx={{ maxWidth: 600, mx: 'auto', my: 6, px: 2 }}>
        <ErrorNotice title="Bloom could not start">
          {message}. Reload the page; if this keeps happening, the server may be down.
        </ErrorNotice>
      </Box>
    </AppTheme>
  );
}
