// /:resourceType (SPEC §2). Static routes (messages, health-record, account, Observation/:id...)
// outrank this dynamic segment in react-router's ranking, so they keep their screens. A segment that
// cannot be a resource type (FHIR type names start with a capital letter) is a mistyped address: it
// gets the not-found page without downloading the search table.
import { NotFoundPanel } from '../../components/NotFoundPanel';
import { retryableLazy } from '../../components/retryableLazy';
import { useParams, type RouteObject } from 'react-router-dom';

const SearchTablePage = retryableLazy(() => import('./SearchTablePage'));

const TYPE_NAME = /^[A-Z][A-Za-z]*$/;

function SearchTableOrNotFound() {
  const { resourceType = '' } = useParams();
  return TYPE_NAME.test(resourceType) ? <SearchTablePage /> : <NotFoundPanel />;
}

export const searchTableRoutes: RouteObject[] = [
  { path: ':resourceType', element: <SearchTableOrNotFound /> },
];
