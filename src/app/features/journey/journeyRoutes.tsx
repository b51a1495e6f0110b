// Routes of the pregnancy journey: /pregnancy, the patient's timeline (its own chunk).
import type { RouteObject } from 'react-router-dom';
import { retryableLazy } from '../../components/retryableLazy';

const PregnancyTimelinePage = retryableLazy(() => import('./PregnancyTimelinePage'));

export const journeyRoutes: RouteObject[] = [{ path: 'pregnancy', element: <PregnancyTimelinePage /> }];
