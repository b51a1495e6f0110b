// The ApolloProvider of the signed-in screens, with the live connection screens watch to refetch after
// the subscription socket reconnects. It is a chunk of its own (see GraphqlBoundary), so
// Apollo and the GraphQL runtime stay off the landing and sign-in pages. Signed-in screens also get
// the offline banner, and the service worker (offline reading) is registered from here, never from
// the landing page. A patient who opted in to system notifications gets the notifier, loaded only then.
import { ApolloProvider } from '@apollo/client/react';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { LiveConnectionContext } from '../../graphql/live-connection';
import { sharedGraphql } from '../../graphql/shared-client';
import { OfflineBanner } from '../components/OfflineBanner';
import { pageOfflineStatus } from '../offline/offlineStatus';
import { offlineWriteQueue } from '../offline/offlineWrites';
import { registerServiceWorker } from '../offline/serviceWorker';
import { useNotificationChoice } from '../system-notifications/notificationChoice';
import { useBloomClient, useSession } from './BloomClientContext';

const BackgroundNotifier = lazy(() => import('../system-notifications/BackgroundNotifier'));

export default function SignedInGraphql({ children }: { children: ReactNode }) {
  const client = useBloomClient();
  const { apollo, live } = sharedGraphql(client);
  const { profile } = useSession();
  const patient = profile?.resourceType === 'Patient' && profile.id ? `Patient/${profile.id}` : undefined;
  const notify = useNotificationChoice(patient);
  useEffect(() => {
    registerServiceWorker();
    // Writes kept while offline go out as soon as a signed-in screen is open with a network.
    offlineWriteQueue(client);
  }, [client]);
  return (
    <ApolloProvider client={apollo}>
      <LiveConnectionContext.Provider value={live}>
        <OfflineBanner store={pageOfflineStatus()} />
        {children}
        {patient && notify && (
          <Suspense fallback={null}>
            <BackgroundNotifier patient={patient} />
          </Suspense>
        )}
      </LiveConnectionContext.Provider>
    </ApolloProvider>
  );
}
