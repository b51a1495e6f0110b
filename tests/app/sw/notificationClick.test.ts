// A click on one of the app's notifications (the service worker's notificationclick handler): the
// notification closes; an open window is focused and asked to show the notification's page; with none
// open, a window opens there; a url that is not an app path leads to the start page. The worker's
// clients are a fake here: browsers do not let a test click a system notification.
import {
  handleNotificationClick,
  notificationTarget,
  type NotificationClients,
  type NotificationWindow,
} from '../../../src/app/sw/notificationClick';
import { SW_OPEN_TYPE } from '../../../src/app/sw/messages';

function fakeWindow(): NotificationWindow & { posted: unknown[]; focused: number } {
  const window = {
    posted: [] as unknown[],
    focused: 0,
    focus: async () => {
      window.focused += 1;
      return window;
    },
    postMessage: (message: unknown) => {
      window.posted.push(message);
    },
  };
  return window;
}

function fakeClients(open: NotificationWindow[]): NotificationClients & { opened: string[] } {
  const opened: string[] = [];
  return {
    opened,
    matchAll: async () => open,
    openWindow: async (url: string) => {
      opened.push(url);
      return null;
    },
  };
}

async function click(clients: NotificationClients, data: unknown): Promise<{ closed: boolean }> {
  let closed = false;
  let work: Promise<unknown> = Promise.resolve();
  handleNotificationClick(clients, {
    notification: { data, close: () => (closed = true) },
    waitUntil: (promise) => (work = promise),
  });
  await work;
  return { closed };
}

describe('a click on an app notification', () => {
  it('closes it, focuses the open window and asks it to show the thread', async () => {
    const window = fakeWindow();
    const clients = fakeClients([window]);
    expect(await click(clients, { url: '/messages' })).toEqual({ closed: true });
    expect(window.focused).toBe(1);
    expect(window.posted).toEqual([{ type: SW_OPEN_TYPE, url: '/messages' }]);
    expect(clients.opened).toEqual([]);
  });

  it('opens a window at the thread when none is open', async () => {
    const clients = fakeClients([]);
    expect(await click(clients, { url: '/messages' })).toEqual({ closed: true });
    expect(clients.opened).toEqual(['/messages']);
  });

  it('leads to the start page for anything but an app path', async () => {
    for (const data of [null, {}, { url: 42 }, { url: 'https://evil.example/' }, { url: '//evil.example' }]) {
      expect(notificationTarget(data)).toBe('/');
    }
    const clients = fakeClients([]);
    await click(clients, { url: 'javascript:alert(1)' });
    expect(clients.opened).toEqual(['/']);
  });
});
