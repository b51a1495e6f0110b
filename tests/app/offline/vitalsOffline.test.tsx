// A measurement entered without a network (SPEC §2 Vitals manual entry): kept on the device
// and listed as waiting, sent when the browser is back online with the Idempotency-Key it was given at
// entry, exactly once, then no longer listed. A save whose attempts all fail on the network is kept with
// the key those attempts carried, so the later send is the same write to the server.
import type { Observation } from '@medplum/fhirtypes';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { VitalsListDocument } from '../../../src/graphql';
import { VITALS_PAGE_SIZE, VitalsPage } from '../../../src/app/features/health-record/VitalsPage';
import { VITAL_TYPES } from '../../../src/app/features/health-record/vitalTypes';
import { renderScreen, type ScreenMock } from '../support/renderScreen';

const weight = VITAL_TYPES[2];
const KEPT = "Measurement kept on this device: it is sent when you're back online.";

function emptyWeights(): ScreenMock {
  return {
    request: {
      query: VitalsListDocument,
      variables: {
        patient: 'Patient/maria-1',
        code: 'http://loinc.org|29463-7',
        count: VITALS_PAGE_SIZE,
        offset: 0,
      },
    },
    result: {
      data: {
        dueDate: { edges: [] },
        ObservationConnection: { count: 0, offset: 0, edges: [] },
      },
    },
    maxUsageCount: 10,
  } as ScreenMock;
}

function setBrowserOnline(online: boolean): void {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
}

async function enterWeight(value: string): Promise<void> {
  fireEvent.change(await screen.findByRole('textbox', { name: /^Weight \(lb\)/ }), { target: { value } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
}

describe('vitals entry offline', () => {
  afterEach(() => setBrowserOnline(true));

  it('offline: kept and listed as waiting, nothing sent; online: sent once with its key, then gone', async () => {
    const { api } = renderScreen(<VitalsPage vital={weight} />, [emptyWeights()]);
    setBrowserOnline(false);
    await enterWeight('162.4');
    expect(await screen.findByText(KEPT)).toBeInTheDocument();
    const waiting = screen.getByRole('region', { name: 'Measurements waiting to be sent' });
    expect(waiting).toHaveTextContent(/Weight 162.4 lb.*Waiting to be sent: you're offline/);
    expect(api.sent.filter((r) => r.method === 'POST')).toEqual([]);

    api.once('POST fhir/R4/Observation', 201, { resourceType: 'Observation', id: 'w-new' });
    setBrowserOnline(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Measurements waiting to be sent' })).toBeNull(),
    );
    const posts = api.sent.filter((r) => r.method === 'POST' && r.path === 'fhir/R4/Observation');
    expect(posts).toHaveLength(1);
    expect(posts[0].headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(posts[0].body as Observation).toMatchObject({ valueQuantity: { value: 162.4, code: '[lb_av]' } });
    // Another online event sends nothing more.
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.sent.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('online but unreachable: kept with the key its attempts carried, and later sent with that same key', async () => {
    const { api } = renderScreen(<VitalsPage vital={weight} />, [emptyWeights()]);
    for (let attempt = 0; attempt < 3; attempt++) api.unreachable('POST fhir/R4/Observation');
    await enterWeight('150');
    expect(await screen.findByText(KEPT, {}, { timeout: 5000 })).toBeInTheDocument();
    const failed = api.sent.filter((r) => r.method === 'POST');
    expect(failed.length).toBeGreaterThan(0);
    const key = failed[0].headers.get('Idempotency-Key');
    expect(key).toBeTruthy();
    expect(failed.every((r) => r.headers.get('Idempotency-Key') === key)).toBe(true);

    api.once('POST fhir/R4/Observation', 201, { resourceType: 'Observation', id: 'w-new' });
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Measurements waiting to be sent' })).toBeNull(),
    );
    const all = api.sent.filter((r) => r.method === 'POST');
    expect(all).toHaveLength(failed.length + 1);
    expect(all[all.length - 1].headers.get('Idempotency-Key')).toBe(key);
  });
});
