// Route of the project administration screens that the generic resource pages do not cover (SPEC §6):
// admin/invite, its own chunk, so nobody else downloads its form.
import type { RouteObject } from 'react-router-dom';
import { retryableLazy } from '../../components/retryableLazy';

const InvitePage = retryableLazy(() => import('./InvitePage'));

export const adminRoutes: RouteObject[] = [{ path: 'admin/invite', element: <InvitePage /> }];
