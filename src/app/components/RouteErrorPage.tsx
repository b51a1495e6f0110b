// Router-level fallback (SPEC §2, SPEC §8 "Unexpected Application Error!"): shown when routing itself or a
// screen outside an ErrorPanel fails. Keeps a way home, and the error text for whoever reports it.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function RouteErrorPage() {
  const error = useRouteError();
  return (
    <Box component="main" sx={{ maxWidth: 600, mx: 'auto', my: 6, px: 2 }}>
      <Typography variant="h1" component="h1" sx={{ fontSize: '1.75rem', mb: 2 }}>
        Unexpected Application Error!
      </Typography>
      <Alert severity="error" sx={{ mb: 3 }}>
        {describe(error)}
      </Alert>
      {/* A plain link: a full reload gives the app a clean start. */}
      <Button href="/" variant="contained">
        Back to the start page
      </Button>
    </Box>
  );
}
