// Router-level fallback (SPEC §2, SPEC §8 "Unexpected Application Error!"): shown when routing itself or a
// screen outside an ErrorPanel fails. Keeps a way home, and the error text for whoever reports it.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useT } from '../i18n/LocaleProvider';
import { ErrorNotice } from './ErrorNotice';
import { ErrorPanel } from './ErrorPanel';
import { LinkButton } from './LinkButton';
import { shellStrings } from './strings';

export function RouteErrorPage({ error }: { error: Error }) {
  const t = useT();
  return (
    <Box component="main" sx={{ maxWidth: 600, mx: 'auto', my: 6, px: 2 }}>
      <Typography variant="h1" component="h1" sx={{ fontSize: '1.75rem', mb: 2 }}>
        {t(shellStrings.unexpectedError)}
      </Typography>
      <Box sx={{ mb: 3 }}>
        <ErrorNotice>{error.message}</ErrorNotice>
      </Box>
      {/* A full reload gives the app a clean start. */}
      <LinkButton to="/" reloadDocument variant="contained">
        {t(shellStrings.backToStart)}
      </LinkButton>
    </Box>
  );
}

const routeErrorPage = (error: Error) => <RouteErrorPage error={error} />;

/**
 * Around the whole page frame: a render error outside every screen's ErrorPanel (the header, the layout)
 * replaces the page with the fallback. The app's router is not a data router (no loaders or actions),
 * so this boundary, not a route's errorElement, is where such errors land.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <ErrorPanel fallback={routeErrorPage}>{children}</ErrorPanel>;
}
