// Signed-out page frame: skip link, header, main (inside the error panel), footer (SPEC §2).
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { Outlet } from 'react-router-dom';
import { useT } from '../i18n/LocaleProvider';
import { ErrorPanel } from './ErrorPanel';
import { Footer } from './Footer';
import { Header } from './Header';
import { shellStrings } from './strings';

export function Layout() {
  const t = useT();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <Link
        href="#main"
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: 10,
          p: 1,
          bgcolor: 'background.paper',
          '&:focus': { top: 8 },
        }}
      >
        {t(shellStrings.skipToContent)}
      </Link>
      <Header />
      <Box component="main" id="main" tabIndex={-1} sx={{ flex: 1, outline: 'none' }}>
        <ErrorPanel>
          <Outlet />
        </ErrorPanel>
      </Box>
      <Footer />
    </Box>
  );
}
