// /:resourceType (SPEC §2). Static routes (messages, health-record, account, Observation/:id...)
// outrank this dynamic segment in react-router's ranking, so they keep their screens.
import { retryableLazy } from '../../components/retryableLazy';
import type { RouteObject } from 'react-router-dom';

const SearchTablePage = retryableLazy(() => import('./SearchTablePage'));

export const searchTableRoutes: RouteObject[] = [{ path: ':resourceType', element: <SearchTablePage /> }];
