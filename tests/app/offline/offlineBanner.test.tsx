// The offline banner: absent online; "You're offline - last updated <time>" as a status
// while the browser is offline or the service worker answers from the device; gone again once an
// answer comes from the network and the browser is online.
import { act, render, screen } from '@testing-library/react';
import { OfflineBanner } from '../../../src/app/components/OfflineBanner';
import { createOfflineStatusStore } from '../../../src/app/offline/offlineStatus';
import { SW_MESSAGE_TYPE } from '../../../src/app/sw/messages';

const STORED_AT = '2026-11-28T09:30:00.000Z';

describe('OfflineBanner', () => {
  test('online: nothing is rendered (no empty status region)', () => {
    render(<OfflineBanner store={createOfflineStatusStore(false)} />);
    expect(screen.queryByRole('status')).toBeNull();
  });

  test('the browser goes offline and comes back: the status appears and leaves', () => {
    const store = createOfflineStatusStore(false);
    render(<OfflineBanner store={store} />);
    act(() => store.setBrowserOffline(true));
    expect(screen.getByRole('status')).toHaveTextContent(
      "You're offline - showing what this device saved earlier. Changes you make are sent when you're back online.",
    );
    act(() => store.setBrowserOffline(false));
    expect(screen.queryByRole('status')).toBeNull();
  });

  test('an answer from the device shows when it was last updated, in the reader locale, as a <time>', () => {
    const store = createOfflineStatusStore(false);
    const { container } = render(<OfflineBanner store={store} />);
    act(() => store.receive({ type: SW_MESSAGE_TYPE, source: 'cache', storedAt: STORED_AT }));
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent(/^You're offline - last updated .+\. Changes you make/);
    expect(container.querySelector('time')?.getAttribute('dateTime')).toBe(STORED_AT);
    // An older kept answer does not move "last updated" back.
    act(() =>
      store.receive({ type: SW_MESSAGE_TYPE, source: 'cache', storedAt: '2026-11-27T09:30:00.000Z' }),
    );
    expect(container.querySelector('time')?.getAttribute('dateTime')).toBe(STORED_AT);
    // A fresh answer from the network: online again.
    act(() => store.receive({ type: SW_MESSAGE_TYPE, source: 'network' }));
    expect(screen.queryByRole('status')).toBeNull();
  });

  test('messages that are not the worker’s are ignored', () => {
    const store = createOfflineStatusStore(false);
    render(<OfflineBanner store={store} />);
    for (const message of [
      null,
      'x',
      { type: 'other', source: 'cache' },
      { type: SW_MESSAGE_TYPE, source: 'disk' },
    ])
      act(() => store.receive(message));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
