// "You're offline" over the signed-in screens while they show what the device kept (the browser has
// no network, or the service worker answered from its store), with when that was last updated. It
// exists only while offline, so the page has no empty status region the rest of the time.
import Alert from '@mui/material/Alert';
import { useSyncExternalStore } from 'react';
import { useT } from '../i18n/LocaleProvider';
import { isShowingOffline, type OfflineStatus, type OfflineStatusStore } from '../offline/offlineStatus';
import { DateTimeDisplay } from './DateTimeDisplay';
import { shellStrings as m } from './strings';

export function OfflineBannerView({ status }: { status: OfflineStatus }) {
  const t = useT();
  if (!isShowingOffline(status)) return null;
  return (
    <Alert severity="info" role="status" sx={{ borderRadius: 0 }}>
      {status.lastUpdated ? (
        <>
          {t(m.offlineUpdated)} <DateTimeDisplay value={status.lastUpdated} />
        </>
      ) : (
        t(m.offlineSaved)
      )}
      {t(m.offlineChanges)}
    </Alert>
  );
}

export function OfflineBanner({ store }: { store: OfflineStatusStore }) {
  const status = useSyncExternalStore(store.subscribe, store.get);
  return <OfflineBannerView status={status} />;
}
