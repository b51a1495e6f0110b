// Routes of SPEC §2 health-record/* and Observation/{id}. Each screen is its own chunk (React.lazy):
// the landing page never downloads them (issue #7 route-level code splitting).
import { lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';

const HealthRecordLayout = lazy(() => import('./HealthRecordLayout'));
const LabResultsPage = lazy(() => import('./LabResultsPage').then((m) => ({ default: m.LabResultsPage })));
const LabResultPage = lazy(() => import('./LabResultPage').then((m) => ({ default: m.LabResultPage })));

export const healthRecordRoutes: RouteObject[] = [
  {
    path: 'health-record',
    element: <HealthRecordLayout />,
    children: [
      { index: true, element: <Navigate to="lab-results" replace /> },
      { path: 'lab-results', element: <LabResultsPage /> },
      { path: 'lab-results/:resultId', element: <LabResultPage /> },
    ],
  },
];
