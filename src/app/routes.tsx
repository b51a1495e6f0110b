// The signed-out routes of SPEC §2: /, /signin, /register; any other path redirects to /.
// The root route's errorElement is the router-level fallback 'Unexpected Application Error!'.
import { Navigate, type RouteObject } from 'react-router-dom';
import { Layout } from './components/Layout';
import { RouteErrorPage } from './components/RouteErrorPage';
import { LandingPage } from './features/landing/LandingPage';
import { RegisterPage } from './features/register/RegisterPage';
import { SignInPage } from './features/signin/SignInPage';

export const appRoutes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <LandingPage /> },
      { path: 'signin', element: <SignInPage /> },
      { path: 'register', element: <RegisterPage /> },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
