// Header (SPEC §2): the Bloom name and mark linking home; signed out, the Log in / Sign up actions;
// signed in, the main navigation (Health Record, Messages, Get Care) and the user menu.
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useT } from '../i18n/LocaleProvider';
import { useSession } from '../session/BloomClientContext';
import { BloomLogo } from './BloomLogo';
import { LinkButton } from './LinkButton';
import { shellStrings } from './strings';

// Signed in only: their menus stay off the landing page's download.
const MainNav = lazy(() => import('./MainNav').then((m) => ({ default: m.MainNav })));
const UserMenu = lazy(() => import('./UserMenu').then((m) => ({ default: m.UserMenu })));

export function Header() {
  const { loading, profile } = useSession();
  const t = useT();
  return (
    <AppBar
      component="header"
      position="static"
      color="inherit"
      elevation={0}
      sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
    >
      <Toolbar sx={{ gap: 1, px: { xs: 1.5, sm: 3 }, maxWidth: 1200, width: '100%', mx: 'auto' }}>
        <Box
          component={RouterLink}
          to="/"
          aria-label={t(shellStrings.home)}
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            color: 'text.primary',
            textDecoration: 'none',
            borderRadius: 1,
          }}
        >
          <BloomLogo sx={{ fontSize: 34 }} />
          <Typography component="span" variant="h3" sx={{ fontSize: '1.45rem', color: 'primary.main' }}>
            Bloom
          </Typography>
        </Box>
        {profile && (
          <Suspense fallback={null}>
            <MainNav />
          </Suspense>
        )}
        <Stack
          direction="row"
          spacing={1}
          component="nav"
          aria-label={t(shellStrings.userNav)}
          // Never wrap the labels: on a 320 px phone the buttons get narrower instead.
          sx={{
            ml: 'auto',
            '& .MuiButton-root, & > a': { whiteSpace: 'nowrap', px: { xs: 1.5, sm: 2 }, minWidth: 0 },
          }}
        >
          {profile && (
            <Suspense fallback={null}>
              <UserMenu profile={profile} />
            </Suspense>
          )}
          {!profile && !loading && (
            <>
              <LinkButton to="/signin">{t(shellStrings.logIn)}</LinkButton>
              <LinkButton to="/register" variant="contained">
                {t(shellStrings.signUp)}
              </LinkButton>
            </>
          )}
        </Stack>
      </Toolbar>
    </AppBar>
  );
}
