// Routes of the screening area: screening/{responseId}, the patient's message after she sends a
// screening questionnaire (its own chunk).
import type { RouteObject } from 'react-router-dom';
import { retryableLazy } from '../../components/retryableLazy';

const ScreeningResultPage = retryableLazy(() => import('./ScreeningResultPage'));

export const screeningRoutes: RouteObject[] = [
  { path: 'screening/:responseId', element: <ScreeningResultPage /> },
];
