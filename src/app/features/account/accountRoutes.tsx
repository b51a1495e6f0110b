// The signed-in account routes of SPEC §2: account/* redirects to account/profile; account/provider/*
// is the Provider page. Each screen is its own chunk (React.lazy), as the health record's.
import { retryableLazy } from '../../components/retryableLazy';
import { Navigate, type RouteObject } from 'react-router-dom';

const AccountLayout = retryableLazy(() => import('./AccountLayout'));
const ProfilePage = retryableLazy(() => import('./ProfilePage').then((m) => ({ default: m.ProfilePage })));
const ProviderPage = retryableLazy(() => import('./ProviderPage').then((m) => ({ default: m.ProviderPage })));

export const accountRoutes: RouteObject[] = [
  {
    path: 'account',
    element: <AccountLayout />,
    children: [
      { index: true, element: <Navigate to="/account/profile" replace /> },
      { path: 'profile', element: <ProfilePage /> },
      { path: 'provider/*', element: <ProviderPage /> },
      { path: '*', element: <Navigate to="/account/profile" replace /> },
    ],
  },
];
