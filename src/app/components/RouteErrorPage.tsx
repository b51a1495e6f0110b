// Router-level fallback (SPEC §2, SPEC §8 "Unexpected Application Error!"): shown when routing itself or a
// screen outside an ErrorPanel fails. Keeps a way home, and the error text for whoever reports it.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { useT } from '../i18n/LocaleProvider';
import { ErrorNotice } from './ErrorNotice';
import { LinkButton } from './LinkButton';
import { shellStrings } from './strings';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function RouteErrorPage() {
  const error = useRouteError();
  const t = useT();
  return (
    <Box component="main" sx={{ maxWidth: 600, mx: 'auto', my: 6, px: 2 }}>
      <Typography variant="h1" component="h1" sx={{ fontSize: '1.75rem', mb: 2 }}>
        {t(shellStrings.unexpectedError)}
      </Typography>
      <Box sx={{ mb: 3 }}>
        <ErrorNotice>{describe(error)}</ErrorNotice>
      </Box>
      {/* A full reload gives the app a clean start. */}
      <LinkButton to="/" reloadDocument variant="contained">
        {t(shellStrings.backToStart)}
      </LinkButton>
    </Box>
  );
}
