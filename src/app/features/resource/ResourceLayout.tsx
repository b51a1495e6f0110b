// Frame of the generic resource pages: a centred column (context sharing, lives around
// every route: session/share).
import Container from '@mui/material/Container';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { LoadingState } from '../../components/ListStates';

export default function ResourceLayout() {
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Suspense fallback={<LoadingState label="Loading" />}>
        <Outlet />
      </Suspense>
    </Container>
  );
}
