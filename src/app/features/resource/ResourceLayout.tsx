// Frame of the generic resource pages: a centred column, and context sharing (issue #11) kept alive
// while the user moves between resource pages.
import Container from '@mui/material/Container';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { LoadingState } from '../../components/ListStates';
import { ShareContextProvider } from './share/ShareContextProvider';

export default function ResourceLayout() {
  return (
    <ShareContextProvider>
      <Container maxWidth="lg" sx={{ py: 3 }}>
        <Suspense fallback={<LoadingState label="Loading" />}>
          <Outlet />
        </Suspense>
      </Container>
    </ShareContextProvider>
  );
}
