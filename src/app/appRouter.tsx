// The router the app renders its routes with. In the browser that is BrowserRouter matching the routes
// with useRoutes, not a data router (createBrowserRouter): the app uses no loaders, actions or fetchers,
// and the data router's code was ~14 KB on the wire in every screen's first download.
import { createRef, useEffect, type ReactNode, type RefObject } from 'react';
import {
  BrowserRouter,
  useNavigate,
  useRoutes,
  type NavigateFunction,
  type RouteObject,
} from 'react-router-dom';

/** What the app needs of its router: the routes rendered, and a way to a path from outside them. */
export interface AppRouter {
  readonly element: ReactNode;
  /** Goes to `to` replacing the current entry (the lost session's way home). */
  navigate(to: string, options: { replace: boolean }): void;
}

function Routes({
  routes,
  navigateRef,
}: {
  routes: RouteObject[];
  navigateRef: RefObject<NavigateFunction | null>;
}) {
  const navigate = useNavigate();
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate, navigateRef]);
  return useRoutes(routes);
}

/** The address bar's router over `routes`. */
export function browserAppRouter(routes: RouteObject[]): AppRouter {
  const navigateRef = createRef<NavigateFunction>();
  return {
    element: (
      <BrowserRouter>
        <Routes routes={routes} navigateRef={navigateRef} />
      </BrowserRouter>
    ),
    navigate: (to, options) => void navigateRef.current?.(to, options),
  };
}
