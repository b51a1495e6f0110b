// What a click on one of the app's notifications does, in the service worker: the notification closes,
// an open window of the app is focused and asked to show the notification's page (an app path only:
// anything else shows the start page); with no window open, one opens there.
import { isAppPath, SW_OPEN_TYPE, type SwOpenMessage } from './messages';

export interface NotificationWindow {
  focus(): Promise<NotificationWindow>;
  postMessage(message: unknown): void;
}

export interface NotificationClients {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<NotificationWindow[]>;
  openWindow(url: string): Promise<NotificationWindow | null>;
}

/** The page a notification leads to: its data's url when that is an app path, else the start page. */
export function notificationTarget(data: unknown): string {
  const url = (data as { url?: unknown } | null)?.url;
  return isAppPath(url) ? url : '/';
}

export async function openInApp(clients: NotificationClients, url: string): Promise<void> {
  const [open] = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (!open) {
    await clients.openWindow(url);
    return;
  }
  const focused = await open.focus();
  const message: SwOpenMessage = { type: SW_OPEN_TYPE, url };
  focused.postMessage(message);
}

export function handleNotificationClick(
  clients: NotificationClients,
  event: { notification: { data: unknown; close(): void }; waitUntil(promise: Promise<unknown>): void },
): void {
  event.notification.close();
  event.waitUntil(openInApp(clients, notificationTarget(event.notification.data)));
}
