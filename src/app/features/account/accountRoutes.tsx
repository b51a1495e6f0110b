// The signed-in account routes of SPEC §2: account/* redirects to account/profile. Issue #7 adds
// account/provider/*.
import { Navigate, type RouteObject } from 'react-router-dom';
import { ProfilePage } from './ProfilePage';

export const accountRoutes: RouteObject[] = [
  {
    path: 'account',
    children: [
      { index: true, element: <Navigate to="/account/profile" replace /> },
      { path: 'profile', element: <ProfilePage /> },
      { path: '*', element: <Navigate to="/account/profile" replace /> },
    ],
  },
];
