// Routes of the kick count: /pregnancy/kicks (its own chunk).
import type { RouteObject } from 'react-router-dom';
import { retryableLazy } from '../../components/retryableLazy';

const KickCountPage = retryableLazy(() => import('./KickCountPage'));

export const kickCountRoutes: RouteObject[] = [{ path: 'pregnancy/kicks', element: <KickCountPage /> }];
