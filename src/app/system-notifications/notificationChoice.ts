// Whether the signed-in person asked for system notifications (the opt-in on the Messages screen),
// remembered on the device for that person only: another person signing in on the same browser starts
// with it off, and sign-out deletes it with the rest of her device data (offline/deviceData.ts).
// Small on purpose: every signed-in screen reads it to decide whether to load the notifier at all.
import { useCallback, useSyncExternalStore } from 'react';

export const NOTIFICATION_CHOICE_STORAGE_KEY = '@bloom/systemNotifications';

type Listener = () => void;
const listeners = new Set<Listener>();

function storedOwner(): string | null {
  try {
    return window.localStorage.getItem(NOTIFICATION_CHOICE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Whether `owner` (a profile reference) chose to be notified on this device. */
export function notificationChosen(owner: string | undefined): boolean {
  return owner !== undefined && storedOwner() === owner;
}

export function setNotificationChoice(owner: string, on: boolean): void {
  try {
    if (on) window.localStorage.setItem(NOTIFICATION_CHOICE_STORAGE_KEY, owner);
    else if (storedOwner() === owner) window.localStorage.removeItem(NOTIFICATION_CHOICE_STORAGE_KEY);
  } catch {
    // Storage refused (private mode): the choice lasts as long as nothing re-reads it.
  }
  listeners.forEach((listener) => listener());
}

/** The choice of `owner`, re-rendering when it changes on this page. */
export function useNotificationChoice(owner: string | undefined): boolean {
  const subscribe = useCallback((listener: Listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return useSyncExternalStore(subscribe, () => notificationChosen(owner));
}
