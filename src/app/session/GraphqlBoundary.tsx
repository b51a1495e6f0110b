// Loads the GraphQL layer when a signed-in screen first needs it: the landing page never downloads
// Apollo. The inner Suspense keeps the provider mounted while a lazy screen's chunk arrives.
import { Suspense, type ReactNode } from 'react';
import { retryableLazy } from '../components/retryableLazy';
import { Outlet } from 'react-router-dom';
import { LoadingState } from '../components/LoadingState';

const loadSignedInGraphql = () => import('./SignedInGraphql');
const SignedInGraphql = retryableLazy(loadSignedInGraphql);

/**
 * Starts downloading the GraphQL layer now (a stored login at start-up): it then arrives alongside the
 * first screen's chunk instead of before it.
 */
export function preloadSignedInGraphql(): void {
  void loadSignedInGraphql().catch(() => undefined);
}

export function WithGraphql({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<LoadingState label="Loading" />}>
      <SignedInGraphql>
        <Suspense fallback={<LoadingState label="Loading" />}>{children}</Suspense>
      </SignedInGraphql>
    </Suspense>
  );
}

/** The layout route of the signed-in screens: GraphQL around the matched screen. */
export function GraphqlOutlet() {
  return (
    <WithGraphql>
      <Outlet />
    </WithGraphql>
  );
}
