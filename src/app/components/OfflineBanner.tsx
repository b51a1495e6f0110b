// "You're offline" over the signed-in screens while they show what the device kept (the browser has
// no network, or the service worker answered from its store), with when that was last updated. It
// exists only while offline, so the page has no empty status region the rest of the time.
import Alert from '@mui/material/Alert';
import { useSyncExternalStore } from 'react';
import { isShowingOffline, type OfflineStatus, type OfflineStatusStore } from '../offline/offlineStatus';
import { DateTimeDisplay } from './DateTimeDisplay';

export function OfflineBannerView({ status }: { status: OfflineStatus }) {
  if (!isShowingOffline(status)) return null;
  return (
    <Alert severity="info" role="status" sx={{ borderRadius: 0 }}>
      You&apos;re offline
      {status.lastUpdated ? (
        <>
          {' '}
          - last updated <DateTimeDisplay value={status.lastUpdated} />
        </>
      ) : (
        ' - showing what this device saved earlier'
      )}
      . Changes you make are sent when you&apos;re back online.
    </Alert>
  );
}

export function OfflineBanner({ store }: { store: OfflineStatusStore }) {
  const status = useSyncExternalStore(store.subscribe, store.get);
  return <OfflineBannerView status={status} />;
}
