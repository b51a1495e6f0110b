// The guard of the signed-in routes (SPEC §2 "An unauthenticated session sends the browser to /"):
// waits for a stored login's session, then shows the route or goes to /.
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { Navigate, Outlet } from 'react-router-dom';
import { shellStrings } from '../components/strings';
import { useT } from '../i18n/LocaleProvider';
import { useSession } from './BloomClientContext';

export function SessionLoading() {
  const t = useT();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
      <CircularProgress aria-label={t(shellStrings.loadingSession)} />
    </Box>
  );
}

export function RequireSession() {
  const { loading, profile } = useSession();
  if (loading) return <SessionLoading />;
  return profile ? <Outlet /> : <Navigate to="/" replace />;
}
