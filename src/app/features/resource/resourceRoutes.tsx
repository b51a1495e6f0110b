// Routes of the generic resource pages: /:resourceType/new, /:resourceType/:id and
// /:resourceType/:id/_history/:versionId, each a lazily loaded chunk. Static routes (Observation/:id of
// the health record, account/..., health-record/...) outrank these dynamic ones in React Router.
import { retryableLazy } from '../../components/retryableLazy';
import type { RouteObject } from 'react-router-dom';

const ResourceLayout = retryableLazy(() => import('./ResourceLayout'));
const ResourcePage = retryableLazy(() => import('./ResourcePage').then((m) => ({ default: m.ResourcePage })));
const NewResourcePage = retryableLazy(() =>
  import('./NewResourcePage').then((m) => ({ default: m.NewResourcePage })),
);

export const resourceRoutes: RouteObject[] = [
  {
    element: <ResourceLayout />,
    children: [
      { path: ':resourceType/new', element: <NewResourcePage /> },
      { path: ':resourceType/:id', element: <ResourcePage /> },
      { path: ':resourceType/:id/_history/:versionId', element: <ResourcePage /> },
    ],
  },
];
