// The routes of SPEC §2: / (landing page signed out, home signed in), the sign-in screens, /signout;
// signed-in routes sit behind RequireSession; any other path redirects to /.
// The root route's errorElement is the router-level fallback 'Unexpected Application Error!'.
import { Suspense } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { LoadingState } from './components/ListStates';
import { Layout } from './components/Layout';
import { accountRoutes } from './features/account/accountRoutes';
import { RouteErrorPage } from './components/RouteErrorPage';
import { healthRecordRoutes } from './features/health-record/healthRecordRoutes';
import { HomeOrLanding } from './features/home/HomeOrLanding';
import { ResetPasswordPage } from './features/password/ResetPasswordPage';
import { SetPasswordPage } from './features/password/SetPasswordPage';
import { RegisterPage } from './features/register/RegisterPage';
import { SignInPage } from './features/signin/SignInPage';
import { SignOutPage } from './features/signout/SignOutPage';
import { resourceRoutes } from './features/resource/resourceRoutes';
import { RequireSession } from './session/RequireSession';

/** Routes that need a session; the features of later issues (messages, health record...) go here. */
export function appRoutesWith(signedInRoutes: RouteObject[]): RouteObject[] {
  return [
    {
      path: '/',
      element: <Layout />,
      errorElement: <RouteErrorPage />,
      children: [
        { index: true, element: <HomeOrLanding /> },
        { path: 'signin', element: <SignInPage /> },
        { path: 'register', element: <RegisterPage /> },
        { path: 'resetpassword', element: <ResetPasswordPage /> },
        { path: 'setpassword/:id/:secret', element: <SetPasswordPage /> },
        { path: 'signout', element: <SignOutPage /> },
        { element: <RequireSession />, children: signedInRoutes },
        // Issue #7 screens are lazily loaded chunks: a spinner shows while one downloads.
        {
          element: <RequireSession />,
          children: [
            {
              element: (
                <Suspense fallback={<LoadingState label="Loading" />}>
                  <Outlet />
                </Suspense>
              ),
              // Issue #9 generic resource pages (/:resourceType/:id, /:resourceType/new) last: static
              // segments such as Observation/:observationId outrank their dynamic ones.
              children: [...healthRecordRoutes, ...resourceRoutes],
            },
          ],
        },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
}

export const appRoutes: RouteObject[] = appRoutesWith([...accountRoutes]);
