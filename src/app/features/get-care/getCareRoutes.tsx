// Route of SPEC §2 get-care/*: the appointment request screen, its own chunk (React.lazy) so the
// calendar library loads only here.
import { retryableLazy } from '../../components/retryableLazy';
import type { RouteObject } from 'react-router-dom';

const GetCarePage = retryableLazy(() => import('./GetCarePage').then((m) => ({ default: m.GetCarePage })));

export const getCareRoutes: RouteObject[] = [{ path: 'get-care/*', element: <GetCarePage /> }];
