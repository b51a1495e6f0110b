// Routes of SPEC §2 health-record/* and Observation/{id}. Each screen is its own chunk (React.lazy):
// the landing page never downloads them.
import { retryableLazy } from '../../components/retryableLazy';
import { Navigate, type RouteObject } from 'react-router-dom';
import { VITAL_TYPES } from './vitalTypes';

const HealthRecordLayout = retryableLazy(() => import('./HealthRecordLayout'));
const LabResultsPage = retryableLazy(() =>
  import('./LabResultsPage').then((m) => ({ default: m.LabResultsPage })),
);
const LabResultPage = retryableLazy(() =>
  import('./LabResultPage').then((m) => ({ default: m.LabResultPage })),
);
const MedicationsPage = retryableLazy(() =>
  import('./MedicationsPage').then((m) => ({ default: m.MedicationsPage })),
);
const MedicationPage = retryableLazy(() =>
  import('./MedicationPage').then((m) => ({ default: m.MedicationPage })),
);
const VaccinesPage = retryableLazy(() => import('./VaccinesPage').then((m) => ({ default: m.VaccinesPage })));
const VaccinePage = retryableLazy(() => import('./VaccinePage').then((m) => ({ default: m.VaccinePage })));
const VitalsOverview = retryableLazy(() =>
  import('./VitalsOverview').then((m) => ({ default: m.VitalsOverview })),
);
const VitalsPage = retryableLazy(() => import('./VitalsPage').then((m) => ({ default: m.VitalsPage })));
const ObservationPage = retryableLazy(() =>
  import('./ObservationPage').then((m) => ({ default: m.ObservationPage })),
);

/**
 * The health-record section: at /health-record for the signed-in patient, and (fresh route objects
 * each call) under a care-team member's patient chart, where the screens read the patient from the route.
 */
export function healthRecordSection(): RouteObject {
  return {
    path: 'health-record',
    element: <HealthRecordLayout />,
    children: [
      { index: true, element: <Navigate to="lab-results" replace /> },
      { path: 'lab-results', element: <LabResultsPage /> },
      { path: 'lab-results/:resultId', element: <LabResultPage /> },
      { path: 'medications', element: <MedicationsPage /> },
      { path: 'medications/:medicationId', element: <MedicationPage /> },
      { path: 'vaccines', element: <VaccinesPage /> },
      { path: 'vaccines/:vaccineId', element: <VaccinePage /> },
      { path: 'vitals', element: <VitalsOverview /> },
      // Static segments outrank :measurementId, so the three type pages are never read as an id.
      // Keyed by type: moving from Weight to Blood Pressure starts a new page, not the same one with
      // Weight's entry form state (one field's text, its 'Measurement saved.').
      ...VITAL_TYPES.map((vital) => ({
        path: `vitals/${vital.slug}`,
        element: <VitalsPage key={vital.slug} vital={vital} />,
      })),
      { path: 'vitals/:measurementId', element: <ObservationPage /> },
    ],
  };
}

export const healthRecordRoutes: RouteObject[] = [
  healthRecordSection(),
  {
    path: 'Observation/:observationId',
    element: <HealthRecordLayout />,
    children: [{ index: true, element: <ObservationPage /> }],
  },
];
