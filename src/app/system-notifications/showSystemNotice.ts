// Shows a notice as a system notification: through the service worker's registration when one is
// active (the notification outlives the page, and a click reaches the worker's notificationclick, which
// focuses the app), else as a page Notification whose click focuses this window and opens the notice's page.
import type { SystemNotice } from './noticeRules';

export async function showSystemNotice(notice: SystemNotice, open: (url: string) => void): Promise<void> {
  const options: NotificationOptions = {
    body: notice.body,
    tag: notice.tag,
    icon: '/icon.svg',
    data: { url: notice.url },
  };
  const registration =
    typeof navigator !== 'undefined' && navigator.serviceWorker
      ? await navigator.serviceWorker.getRegistration().catch(() => undefined)
      : undefined;
  if (registration?.active) {
    await registration.showNotification(notice.title, options);
    return;
  }
  const shown = new Notification(notice.title, options);
  shown.onclick = () => {
    window.focus();
    open(notice.url);
    shown.close();
  };
}
