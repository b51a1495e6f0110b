// /:resourceType (SPEC §2). Static routes (messages, health-record, account, Observation/:id...)
// outrank this dynamic segment in react-router's ranking, so they keep their screens. A segment that
// cannot be a resource type (FHIR type names start with a capital letter) is a mistyped address: it
// gets the not-found page without downloading the search table.
// The table's first rows should cost one round trip after the app starts: a small chunk asks for the
// schema, the saved layout and the rows at once (./tablePrefetch). On a start at a table's address
// with a stored login it downloads as the app starts and asks as soon as the client is there, beside
// the session check (SearchTableEarlyStart, outside the session guard); only then does the grid's
// chunk load and run (100-150 ms of module evaluation that would otherwise delay those requests), while
// the answers are on their way. Else both chunks load when a link to a table is pointed at or focused,
// and the small one asks as the route opens.
import { Suspense, useEffect } from 'react';
import { useLocation, useParams, type RouteObject } from 'react-router-dom';
import { LoadingState } from '../../components/LoadingState';
import { NotFoundPanel } from '../../components/NotFoundPanel';
import { retryableLazy } from '../../components/retryableLazy';
import { useBloomClient, useLoadedBloomClient } from '../../session/BloomClientContext';
import { hasStoredLogin } from '../../session/clientSource';

const loadPage = () => import('./SearchTablePage');
const loadPrefetch = () => import('./tablePrefetch');
const SearchTablePage = retryableLazy(loadPage);

const TYPE_NAME = /^[A-Z][A-Za-z]*$/;

/** '/Observation' is a table's address; '/Observation/123', '/inbox' are not. */
export function isTablePath(pathname: string): boolean {
  return TYPE_NAME.test(pathname.replace(/^\/|\/$/g, ''));
}

/** Starts downloading the table's code (both chunks); a failed download is tried again on render. */
export function preloadSearchTable(): void {
  void loadPage().catch(() => undefined);
  void loadPrefetch().catch(() => undefined);
}

/** A link to a table under the pointer or the keyboard focus: the user may open it next. */
function preloadOnIntent(event: Event): void {
  const target = event.target instanceof Element ? event.target : undefined;
  const link = target?.closest('a[href]');
  if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return;
  if (isTablePath(link.pathname)) preloadSearchTable();
}

if (typeof window !== 'undefined' && typeof document !== 'undefined') {
  // A signed-in start on a table's address: the prefetch chunk downloads beside the session and GraphQL
  // layer (the grid's chunk waits for the early start).
  if (hasStoredLogin() && isTablePath(window.location.pathname)) void loadPrefetch().catch(() => undefined);
  document.addEventListener('pointerover', preloadOnIntent, { passive: true });
  document.addEventListener('focusin', preloadOnIntent);
}

/** The page load's first address has been looked at (the early start is for the start-up only). */
let earlyStartChecked = false;

/**
 * Mounted outside the session guard: a page load that starts signed in on a table's address asks for
 * the table's data once the client is there, while the session check (auth/me) is still on its way,
 * not after it. The stored login's token is what every request carries anyway; a session the server
 * refuses fails these requests quietly and sends the browser to / as any screen would.
 */
export function SearchTableEarlyStart() {
  const client = useLoadedBloomClient();
  useEffect(() => {
    if (!client || earlyStartChecked) return;
    earlyStartChecked = true;
    const { pathname, search } = window.location;
    const resourceType = pathname.replace(/^\/|\/$/g, '');
    if (!client.getActiveLogin() || !isTablePath(pathname)) return;
    loadPrefetch().then(
      (module) => {
        module.prefetchTable(client, resourceType, search);
        // The grid's code loads and runs now, while the table's answers are on their way.
        void loadPage().catch(() => undefined);
      },
      () => undefined,
    );
  }, [client]);
  return null;
}

/** A mistyped address is answered at once, before anything of the table (or the session) is needed. */
function SearchTableOrNotFound() {
  const { resourceType = '' } = useParams();
  return TYPE_NAME.test(resourceType) ? <SearchTableRoute resourceType={resourceType} /> : <NotFoundPanel />;
}

function SearchTableRoute({ resourceType }: { resourceType: string }) {
  const { search } = useLocation();
  const client = useBloomClient();
  useEffect(() => {
    let active = true;
    loadPrefetch().then(
      (module) => active && module.prefetchTable(client, resourceType, search),
      () => undefined,
    );
    return () => {
      active = false;
    };
    // Once per type opened: the table itself asks for what later navigations need.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, resourceType]);
  return (
    // Its own boundary, so this route is mounted (and its prefetch started) while the chunk downloads.
    <Suspense fallback={<LoadingState label="Loading" />}>
      <SearchTablePage />
    </Suspense>
  );
}

export const searchTableRoutes: RouteObject[] = [
  { path: ':resourceType', element: <SearchTableOrNotFound /> },
];
