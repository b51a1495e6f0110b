// App through the real routes, the generic resource pages and the platform
// client's FHIRcast calls, with the fake API as the hub's HTTP side and a stub WebSocket (SPEC §7
// Remote context sync): with "Share context" on, a Patient page publishes Patient-open, a
// DiagnosticReport page DiagnosticReport-open with its patient (closing the patient first), an
// earlier version publishes nothing, and another app's open arriving on the socket is acknowledged
// and brings the page to that patient without publishing it back. Chromium runs the same against the
// real hub in tests/e2e/fhircast-share.test.ts.
import type { DiagnosticReport, ElementDefinition, StructureDefinition } from '@medplum/fhirtypes';
import { act, screen, waitFor } from '@testing-library/react';
import { SHARE_CONTEXT_SETTING } from '../../../../src/app/session/share/ShareContextProvider';
import { installFakeApi, type FakeApi } from '../../support/fakeApi';
import { renderApp } from '../../support/renderApp';
import { answerSchema, drChen, patientDefinition, rosa, storeLoginOf } from '../../support/resourceFixtures';

const TOPIC = 'bloom-Practitioner-chen-1';
const ENDPOINT = 'ws://api.test:8103/ws/fhircast/e1';
const PUBLISH = `POST fhircast/STU3/${TOPIC}`;

/** The socket the client opens to the endpoint: records what it sends, delivers what a test gives. */
class StubSocket {
  static opened: StubSocket[] = [];
  readonly sent: string[] = [];
  private readonly listeners = new Map<string, ((event: { data?: unknown }) => void)[]>();

  constructor(readonly url: string) {
    StubSocket.opened.push(this);
    setTimeout(() => this.emit('open'), 0);
  }

  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  send(data: string): void {
    this.sent.push(data);
  }

  close(): void {
    // Nothing: the app closes it only when it stops sharing.
  }

  emit(type: string, data?: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }
}

function element(path: string, min: number, max: string, ...types: string[]): ElementDefinition {
  return { id: path, path, min, max, type: types.map((code) => ({ code })) };
}

const reportDefinition: StructureDefinition = {
  ...patientDefinition,
  id: 'DiagnosticReport',
  url: 'http://hl7.org/fhir/StructureDefinition/DiagnosticReport',
  name: 'DiagnosticReport',
  type: 'DiagnosticReport',
  snapshot: {
    element: [
      { id: 'DiagnosticReport', path: 'DiagnosticReport', min: 0, max: '*' },
      element('DiagnosticReport.id', 0, '1', 'id'),
      element('DiagnosticReport.meta', 0, '1', 'Meta'),
      element('DiagnosticReport.status', 1, '1', 'code'),
      element('DiagnosticReport.code', 1, '1', 'CodeableConcept'),
      element('DiagnosticReport.subject', 0, '1', 'Reference'),
    ],
  },
};

const report: DiagnosticReport = {
  resourceType: 'DiagnosticReport',
  id: 'cbc-1',
  status: 'final',
  code: { text: 'Complete blood count' },
  subject: { reference: 'Patient/rosa-1' },
};

let api: FakeApi;
const realWebSocket = (globalThis as { WebSocket?: unknown }).WebSocket;

beforeEach(() => {
  api = installFakeApi();
  StubSocket.opened = [];
  (globalThis as { WebSocket?: unknown }).WebSocket = StubSocket;
});

afterEach(() => {
  (globalThis as { WebSocket?: unknown }).WebSocket = realWebSocket;
});

function published(): [string, unknown][] {
  return (api.bodiesOf(PUBLISH) as { event: { 'hub.event': string; context: unknown } }[]).map((body) => [
    body.event['hub.event'],
    body.event.context,
  ]);
}

const patientEntry = (id: string) => ({ key: 'patient', resource: { resourceType: 'Patient', id } });

describe('issue #11 Share context on the generic resource pages', () => {
  it('publishes what the page shows, follows an open from another app, and acknowledges it', async () => {
    storeLoginOf(api, drChen);
    answerSchema(api);
    api.always(`GET keyvalue/v1/${SHARE_CONTEXT_SETTING}`, 200, 'on');
    api.always('GET fhir/R4/Patient/rosa-1', 200, rosa);
    api.always('GET fhir/R4/Patient/rosa-1/_history/v1', 200, { ...rosa, gender: 'other' });
    api.always('GET fhir/R4/Patient/ana-2', 200, {
      ...rosa,
      id: 'ana-2',
      name: [{ given: ['Ana'], family: 'Ruiz' }],
    });
    api.always('GET fhir/R4/DiagnosticReport/cbc-1', 200, report);
    api.always('POST fhircast/STU3', 202, { 'hub.channel.endpoint': ENDPOINT });
    api.always(PUBLISH, 202, {});
    const { router } = renderApp('/Patient/rosa-1');

    expect(await screen.findByRole('switch', { name: 'Share context' })).toBeChecked();
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Connected'));
    expect(api.bodiesOf('POST fhircast/STU3')).toEqual([
      {
        'hub.channel.type': 'websocket',
        'hub.mode': 'subscribe',
        'hub.topic': TOPIC,
        'hub.events': 'Patient-open,Patient-close,DiagnosticReport-open,DiagnosticReport-close',
      },
    ]);
    expect(StubSocket.opened.map((socket) => socket.url)).toEqual([ENDPOINT]);
    await waitFor(() => expect(published()).toEqual([['Patient-open', [patientEntry('rosa-1')]]]));

    // A report: the patient is closed, the report opened with its patient (only ids go out).
    answerSchema(api, reportDefinition);
    await act(() => router.navigate('/DiagnosticReport/cbc-1'));
    await screen.findByRole('heading', { level: 1, name: 'Complete blood count' });
    await waitFor(() => expect(published()).toHaveLength(3));
    expect(published().slice(1)).toEqual([
      ['Patient-close', [patientEntry('rosa-1')]],
      [
        'DiagnosticReport-open',
        [
          { key: 'report', resource: { resourceType: 'DiagnosticReport', id: 'cbc-1' } },
          patientEntry('rosa-1'),
        ],
      ],
    ]);

    // An earlier version is not what the clinician is on: the report is closed, nothing opened.
    answerSchema(api);
    await act(() => router.navigate('/Patient/rosa-1/_history/v1'));
    expect(await screen.findByText(/You are viewing an earlier version/)).toBeInTheDocument();
    await waitFor(() => expect(published()).toHaveLength(4));
    expect(published()[3][0]).toBe('DiagnosticReport-close');

    // Another app opens Ana: the message is acknowledged with its id and the page follows.
    const [socket] = StubSocket.opened;
    act(() =>
      socket.emit(
        'message',
        JSON.stringify({
          timestamp: new Date().toISOString(),
          id: 'other-app-1',
          event: { 'hub.topic': TOPIC, 'hub.event': 'Patient-open', context: [patientEntry('ana-2')] },
        }),
      ),
    );
    expect(socket.sent.map((text) => JSON.parse(text) as { id: string; status: string })).toEqual([
      expect.objectContaining({ id: 'other-app-1', status: '200' }),
    ]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ana Ruiz' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/Patient/ana-2');
    // The followed patient is the other app's context: not published back.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(published()).toHaveLength(4);
  });
});
