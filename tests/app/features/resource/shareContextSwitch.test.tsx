// App: the "Share context" switch with the platform client's key-value store (SPEC §7
// keyvalue/v1) on a fake API and a fake hub client: offered to clinicians only, the choice stored per
// user, on → connected to the user's topic with a status line, the page on screen announced, another
// app's open followed by navigation, problems shown as text.
import type { Patient } from '@medplum/fhirtypes';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, useParams } from 'react-router-dom';
import {
  ShareContextProvider,
  SHARE_CONTEXT_SETTING,
  useSharedView,
} from '../../../../src/app/session/share/ShareContextProvider';
import { ShareContextSwitch } from '../../../../src/app/features/resource/share/ShareContextSwitch';
import { BloomClientProvider } from '../../../../src/app/session/BloomClientContext';
import { createAppClient } from '../../../../src/app/session/createAppClient';
import { installFakeApi, testBaseUrl, maria, outcome, type FakeApi } from '../../support/fakeApi';
import { FakeHub } from '../../support/fakeFhircastHub';
import { drChen, storeLoginOf } from '../../support/resourceFixtures';

const settingRoute = `keyvalue/v1/${SHARE_CONTEXT_SETTING}`;

function PatientScreen() {
  const { id = '' } = useParams();
  const shown: Patient = { resourceType: 'Patient', id };
  useSharedView(shown);
  return <h1>{`Patient ${id}`}</h1>;
}

let api: FakeApi;
let hub: FakeHub;

function renderShared(path: string) {
  const client = createAppClient({ baseUrl: testBaseUrl }, () => undefined);
  const router = createMemoryRouter(
    [
      {
        element: (
          <ShareContextProvider api={hub}>
            <ShareContextSwitch />
            <Outlet />
          </ShareContextProvider>
        ),
        children: [
          { path: 'Patient/:id', element: <PatientScreen /> },
          { path: 'account', element: <h1>Account</h1> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <BloomClientProvider client={client}>
      <RouterProvider router={router} />
    </BloomClientProvider>,
  );
  return router;
}

beforeEach(() => {
  api = installFakeApi();
  hub = new FakeHub();
});

describe('issue #11 Share context switch', () => {
  it('is off by default for a clinician; turning it on stores the choice and connects to the per-user topic', async () => {
    storeLoginOf(api, drChen);
    api.once(`GET ${settingRoute}`, 404, outcome('Not found'));
    api.once(`PUT ${settingRoute}`, 200, '');
    renderShared('/Patient/p1');
    const toggle = await screen.findByRole('switch', { name: 'Share context' });
    expect(toggle).not.toBeChecked();
    expect(hub.subscriptions).toEqual([]);

    fireEvent.click(toggle);
    expect(toggle).toBeChecked();
    await waitFor(() => expect(api.bodiesOf(`PUT ${settingRoute}`)).toEqual(['on']));
    await waitFor(() => expect(hub.subscriptions).toHaveLength(1));
    expect(hub.subscriptions[0].topic).toBe('bloom-Practitioner-chen-1');
    expect(screen.getByRole('status')).toHaveTextContent('Connecting…');
    act(() => hub.handlers?.onOpen?.());
    expect(screen.getByRole('status')).toHaveTextContent('Connected');
    // The patient on screen is announced once sharing is on.
    await waitFor(() => expect(hub.published.map((p) => p.event)).toEqual(['Patient-open']));
  });

  it("a stored 'on' connects at once; another app's Patient-open brings this window to that patient", async () => {
    storeLoginOf(api, drChen);
    api.always(`GET ${settingRoute}`, 200, 'on');
    const router = renderShared('/Patient/p1');
    expect(await screen.findByRole('switch', { name: 'Share context' })).toBeChecked();
    await waitFor(() => expect(hub.handlers).toBeDefined());
    await waitFor(() => expect(hub.published).toHaveLength(1));
    act(() =>
      hub.deliver('Patient-open', [
        { key: 'patient', resource: { resourceType: 'Patient', id: 'p2' } as Patient },
      ]),
    );
    expect(await screen.findByRole('heading', { name: 'Patient p2' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/Patient/p2');
    // p1 was replaced by the other app's p2: no close of p1, and p2 is not announced back.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(hub.published.map((p) => p.event)).toEqual(['Patient-open']);
    expect(hub.published[0].context).toEqual([
      { key: 'patient', resource: { resourceType: 'Patient', id: 'p1' } },
    ]);

    // Turning it off closes the patient on screen, disconnects and stores 'off'.
    api.once(`PUT ${settingRoute}`, 200, '');
    fireEvent.click(screen.getByRole('switch', { name: 'Share context' }));
    await waitFor(() => expect(hub.disconnects).toBe(1));
    expect(api.bodiesOf(`PUT ${settingRoute}`)).toEqual(['off']);
    expect(screen.getByRole('status')).toHaveTextContent('');
    await waitFor(() => expect(hub.published.map((p) => p.event)).toEqual(['Patient-open', 'Patient-close']));
    expect(hub.published[1].context).toEqual([
      { key: 'patient', resource: { resourceType: 'Patient', id: 'p2' } },
    ]);
  });

  it("another app's open is followed from a screen that shares nothing (sharing lives around every route)", async () => {
    storeLoginOf(api, drChen);
    api.always(`GET ${settingRoute}`, 200, 'on');
    const router = renderShared('/account');
    await screen.findByRole('heading', { name: 'Account' });
    await waitFor(() => expect(hub.handlers).toBeDefined());
    act(() =>
      hub.deliver('Patient-open', [
        { key: 'patient', resource: { resourceType: 'Patient', id: 'p3' } as Patient },
      ]),
    );
    expect(await screen.findByRole('heading', { name: 'Patient p3' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/Patient/p3');
  });

  it('pagehide closes the patient on screen with keepalive', async () => {
    storeLoginOf(api, drChen);
    api.always(`GET ${settingRoute}`, 200, 'on');
    renderShared('/Patient/p1');
    await waitFor(() => expect(hub.published).toHaveLength(1));
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(hub.published.map((p) => [p.event, p.options])).toEqual([
      ['Patient-open', undefined],
      ['Patient-close', { keepalive: true }],
    ]);
  });

  it('§8: connection problems show as a status message, not a crash', async () => {
    storeLoginOf(api, drChen);
    api.always(`GET ${settingRoute}`, 200, 'on');
    renderShared('/Patient/p1');
    await waitFor(() => expect(hub.handlers).toBeDefined());
    act(() => hub.handlers?.onError?.(new Error('WebSocket error')));
    act(() => hub.handlers?.onClose?.());
    expect(screen.getByRole('status')).toHaveTextContent('Connection lost, retrying… (WebSocket error)');
    expect(screen.getByRole('heading', { name: 'Patient p1' })).toBeInTheDocument();
  });

  it('a failed read or save of the choice is said in the status line', async () => {
    storeLoginOf(api, drChen);
    api.once(`GET ${settingRoute}`, 500, outcome('Internal server error'));
    api.once(`GET ${settingRoute}`, 500, outcome('Internal server error'));
    api.once(`GET ${settingRoute}`, 500, outcome('Internal server error'));
    renderShared('/Patient/p1');
    expect(await screen.findByText('Could not read the sharing setting')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Share context' })).not.toBeChecked();
    api.once(`PUT ${settingRoute}`, 400, outcome('Refused'));
    fireEvent.click(screen.getByRole('switch', { name: 'Share context' }));
    expect(await screen.findByText(/Could not save the sharing setting/)).toBeInTheDocument();
  });

  it("issue #20: the choice is kept under 'bloom-share-context', a key Medplum's key-value API accepts", () => {
    expect(SHARE_CONTEXT_SETTING).toBe('bloom-share-context');
    expect(SHARE_CONTEXT_SETTING).toMatch(/^[A-Za-z0-9_-]{1,255}$/);
  });

  it('an unset choice (204, as Bloom answers) is off: only its own key is read, no problem shown, nothing written', async () => {
    storeLoginOf(api, drChen);
    api.once(`GET ${settingRoute}`, 204, '');
    renderShared('/Patient/p1');
    const toggle = await screen.findByRole('switch', { name: 'Share context' });
    expect(toggle).not.toBeChecked();
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.queryByText(/Could not/)).toBeNull();
    expect(
      api.sent.filter((r) => r.path.startsWith('keyvalue/')).map((r) => `${r.method} ${r.path}`),
    ).toEqual([`GET ${settingRoute}`]);
    expect(hub.subscriptions).toEqual([]);
  });

  it("on Medplum's server an unset choice answers 404 'Not found' as text: off, and no earlier dotted key is asked for", async () => {
    storeLoginOf(api, drChen);
    api.once(`GET ${settingRoute}`, 404, 'Not found');
    renderShared('/Patient/p1');
    const toggle = await screen.findByRole('switch', { name: 'Share context' });
    expect(toggle).not.toBeChecked();
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.queryByText(/Could not/)).toBeNull();
    expect(
      api.sent.filter((r) => r.path.startsWith('keyvalue/')).map((r) => `${r.method} ${r.path}`),
    ).toEqual([`GET ${settingRoute}`]);
  });

  it('a patient is offered no switch and nothing is read or connected', async () => {
    storeLoginOf(api, maria);
    renderShared('/Patient/maria-1');
    expect(await screen.findByRole('heading', { name: 'Patient maria-1' })).toBeInTheDocument();
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.queryByRole('switch')).toBeNull();
    expect(api.sent.some((r) => r.path.startsWith('keyvalue/'))).toBe(false);
    expect(hub.subscriptions).toEqual([]);
  });
});
