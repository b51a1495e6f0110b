// Shown when the app cannot learn where its server is (no usable /config.json): a clear message, not a blank page.
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { theme } from './theme';

export function StartupError({ message }: { message: string }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Box component="main" sx={{ maxWidth: 600, mx: 'auto', my: 6, px: 2 }}>
        <Alert severity="error">
          <AlertTitle>Bloom could not start</AlertTitle>
          {message}. Reload the page; if this keeps happening, the server may be down.
        </Alert>
      </Box>
    </ThemeProvider>
  );
}
