// Nothing of one person stays on the device after they sign out (or another person signs in): the
// GraphQL answers the service worker kept and the writes waiting for the network are deleted when the
// signed-in profile changes. The answers are keyed by profile too, so a race cannot serve them to
// someone else; deleting them keeps the device clean.
import type { ClientEventListener, ClientEventType } from '../../client/events';
import { GRAPHQL_ANSWERS_CACHE } from '../sw/graphql-answers';
import { OFFLINE_WRITES_STORAGE_KEY } from '../../client/offline-writes';
import { NOTIFICATION_CHOICE_STORAGE_KEY } from '../system-notifications/notificationChoice';

export interface ProfileSource {
  getActiveLogin(): { profile?: { reference?: string } } | undefined;
  addEventListener(type: ClientEventType, listener: ClientEventListener): void;
}

/** Deletes the kept GraphQL answers, the waiting writes and the notification choice of whoever was signed in. */
export async function clearPersonalDeviceData(): Promise<void> {
  try {
    window.localStorage.removeItem(OFFLINE_WRITES_STORAGE_KEY);
    window.localStorage.removeItem(NOTIFICATION_CHOICE_STORAGE_KEY);
  } catch {
    // Storage refused (private mode): nothing was kept there.
  }
  if (typeof caches !== 'undefined') await caches.delete(GRAPHQL_ANSWERS_CACHE);
}

/** Clears the device's personal data whenever the signed-in profile changes (not on token renewals). */
export function clearDeviceDataOnProfileChange(source: ProfileSource): void {
  let profile = source.getActiveLogin()?.profile?.reference;
  source.addEventListener('change', () => {
    const next = source.getActiveLogin()?.profile?.reference;
    if (next === profile) return;
    profile = next;
    void clearPersonalDeviceData().catch(() => undefined);
  });
}
