// App: the share-context rules with a fake hub client (SPEC §3 Remote context events and keys,
// §7 Remote context sync): what a view publishes and in which order, following another app's open,
// ignoring this window's own echo, not closing what another app replaced, and connection problems as
// status (retrying) instead of errors.
import type { DiagnosticReport, Patient } from '@medplum/fhirtypes';
import {
  ContextSharing,
  SHARED_EVENTS,
  contextFor,
  userTopic,
  type SharingStatus,
} from '../../../../src/app/session/share/contextSharing';
import { FakeHub } from '../../support/fakeFhircastHub';

const patient = (id: string): Patient => ({ resourceType: 'Patient', id, name: [{ family: 'Doe' }] });
const patientEntry = (id: string) => ({
  key: 'patient',
  resource: { resourceType: 'Patient', id } as Patient,
});

async function settled(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

let hub: FakeHub;
let followed: string[];
let statuses: SharingStatus[];
let sharing: ContextSharing;
let clock: number;

beforeEach(() => {
  jest.useFakeTimers();
  hub = new FakeHub();
  followed = [];
  statuses = [];
  clock = 1_000_000;
  sharing = new ContextSharing(
    hub,
    'bloom-Practitioner-chen-1',
    { follow: (path) => followed.push(path), status: (status) => statuses.push(status) },
    3000,
    () => clock,
  );
});

afterEach(() => {
  sharing.stop();
  jest.useRealTimers();
});

describe('issue #11 share context (fake hub)', () => {
  it('the topic is per user: derived from the profile', () => {
    expect(userTopic({ resourceType: 'Practitioner', id: 'chen-1' })).toBe('bloom-Practitioner-chen-1');
    expect(userTopic({ resourceType: 'Practitioner', id: 'other' })).not.toBe(
      userTopic({ resourceType: 'Practitioner', id: 'chen-1' }),
    );
  });

  it('SPEC §7: subscribes to the open/close events on the topic and reports connecting, then connected', async () => {
    sharing.start();
    await settled();
    expect(hub.subscriptions).toEqual([{ topic: 'bloom-Practitioner-chen-1', events: SHARED_EVENTS }]);
    expect(statuses).toEqual([{ connection: 'connecting' }]);
    hub.handlers?.onOpen?.();
    expect(statuses.at(-1)).toEqual({ connection: 'connected' });
  });

  it('SPEC §3: viewing a Patient publishes Patient-open with only its id; leaving publishes Patient-close, in order', async () => {
    sharing.start();
    const leave = sharing.view(patient('p1'));
    leave();
    sharing.view(patient('p2'));
    await settled();
    expect(hub.published).toEqual([
      { topic: 'bloom-Practitioner-chen-1', event: 'Patient-open', context: [patientEntry('p1')] },
      { topic: 'bloom-Practitioner-chen-1', event: 'Patient-close', context: [patientEntry('p1')] },
      { topic: 'bloom-Practitioner-chen-1', event: 'Patient-open', context: [patientEntry('p2')] },
    ]);
  });

  it('SPEC §3: a DiagnosticReport is shared with its patient; one about no Patient is not; other types are not', async () => {
    const report: DiagnosticReport = {
      resourceType: 'DiagnosticReport',
      id: 'r1',
      status: 'final',
      code: { text: 'CBC' },
      subject: { reference: 'Patient/p1' },
    };
    sharing.start();
    sharing.view(report)();
    sharing.view({ ...report, id: 'r2', subject: { reference: 'Group/g1' } })();
    sharing.view({ resourceType: 'Observation', id: 'o1', status: 'final', code: {} })();
    await settled();
    const reportContext = [
      { key: 'report', resource: { resourceType: 'DiagnosticReport', id: 'r1' } },
      patientEntry('p1'),
    ];
    expect(hub.published.map((p) => [p.event, p.context])).toEqual([
      ['DiagnosticReport-open', reportContext],
      ['DiagnosticReport-close', reportContext],
    ]);
    expect(contextFor({ resourceType: 'Patient' })).toBeUndefined();
  });

  it("follows another app's Patient-open and DiagnosticReport-open, and does not republish what it followed", async () => {
    sharing.start();
    await settled();
    const leaveCurrent = sharing.view(patient('p1'));
    await settled();
    hub.deliver('Patient-open', [patientEntry('p1')]); // the hub's echo of this window's own open
    expect(followed).toEqual([]);

    hub.deliver('Patient-open', [patientEntry('p9')]);
    expect(followed).toEqual(['/Patient/p9']);
    // The app navigates: the old page leaves without a close (p9 replaced it), the new one is not re-announced.
    leaveCurrent();
    sharing.view(patient('p9'));
    await settled();
    expect(hub.published.map((p) => p.event)).toEqual(['Patient-open']);

    hub.deliver('DiagnosticReport-open', [
      { key: 'report', resource: { resourceType: 'DiagnosticReport', id: 'r7' } as DiagnosticReport },
      patientEntry('p9'),
    ]);
    expect(followed).toEqual(['/Patient/p9', '/DiagnosticReport/r7']);
    // An open of what is already open, a close, malformed and unrelated events change nothing.
    hub.deliver('DiagnosticReport-open', [
      { key: 'report', resource: { resourceType: 'DiagnosticReport', id: 'r7' } as DiagnosticReport },
      patientEntry('p9'),
    ]);
    hub.deliver('Patient-close', [patientEntry('p9')]);
    hub.deliver('Patient-open', [{ key: 'patient' }]);
    hub.deliver('Encounter-open', [patientEntry('p3')]);
    expect(followed).toEqual(['/Patient/p9', '/DiagnosticReport/r7']);
  });

  it('after a remote close, viewing the same patient announces it again', async () => {
    sharing.start();
    await settled();
    hub.deliver('Patient-open', [patientEntry('p5')]);
    sharing.view(patient('p5'));
    await settled();
    expect(hub.published).toEqual([]);
    hub.deliver('Patient-close', [patientEntry('p5')]);
    sharing.view(patient('p5'));
    await settled();
    expect(hub.published.map((p) => p.event)).toEqual(['Patient-open']);
  });

  it('an own open whose echo never came is forgotten, so a later remote open of it is followed', async () => {
    sharing.start();
    await settled();
    sharing.view(patient('p1'))();
    await settled();
    clock += 60_000;
    hub.deliver('Patient-open', [patientEntry('p1')]);
    expect(followed).toEqual(['/Patient/p1']);
  });

  it('§8: a socket error and close show as status and reconnect with a new subscription; never throws', async () => {
    sharing.start();
    await settled();
    hub.handlers?.onOpen?.();
    hub.handlers?.onError?.(new Error('WebSocket error'));
    expect(statuses.at(-1)).toEqual({ connection: 'connected', problem: 'WebSocket error' });
    hub.handlers?.onClose?.();
    expect(statuses.at(-1)).toEqual({ connection: 'reconnecting', problem: 'WebSocket error' });
    expect(hub.subscriptions).toHaveLength(1);
    jest.advanceTimersByTime(3000);
    await settled();
    expect(hub.subscriptions).toHaveLength(2);
    hub.handlers?.onOpen?.();
    expect(statuses.at(-1)).toEqual({ connection: 'connected' });
  });

  it('a refused subscription is retried; a refused publish is reported and cleared by the next success', async () => {
    hub.subscribeFailures.push(new Error('Invalid response!'));
    sharing.start();
    await settled();
    expect(statuses.at(-1)).toEqual({ connection: 'reconnecting', problem: 'Invalid response!' });
    jest.advanceTimersByTime(3000);
    await settled();
    expect(hub.subscriptions).toHaveLength(2);
    hub.handlers?.onOpen?.();

    hub.publishFailure = new Error('Forbidden');
    sharing.view(patient('p1'))();
    await settled();
    expect(statuses.at(-1)).toEqual({
      connection: 'connected',
      problem: 'Patient-close not shared: Forbidden',
    });
    hub.publishFailure = undefined;
    sharing.view(patient('p2'));
    await settled();
    expect(statuses.at(-1)).toEqual({ connection: 'connected' });
  });

  it('stop closes what this window has open (sharing off, sign-out) and resolves once the hub answered', async () => {
    sharing.start();
    await settled();
    sharing.view(patient('p1'));
    let stopped = false;
    void sharing.stop().then(() => (stopped = true));
    await settled();
    expect(stopped).toBe(true);
    expect(hub.published.map((p) => [p.event, p.context])).toEqual([
      ['Patient-open', [patientEntry('p1')]],
      ['Patient-close', [patientEntry('p1')]],
    ]);
  });

  it('stop closes nothing another app replaced, nor a screen that shares nothing', async () => {
    sharing.start();
    await settled();
    sharing.view(patient('p1'));
    hub.deliver('Patient-open', [patientEntry('p2')]);
    await sharing.stop();
    expect(hub.published.map((p) => p.event)).toEqual(['Patient-open']);
  });

  it('the page going away sends the close at once with keepalive; a page back from the cache opens again', async () => {
    sharing.start();
    await settled();
    sharing.view(patient('p1'));
    await settled();
    sharing.pageHidden();
    sharing.pageHidden();
    // Sent in the same task, before any queued work (the page may be gone by then), and only once.
    expect(hub.published.map((p) => [p.event, p.options])).toEqual([
      ['Patient-open', undefined],
      ['Patient-close', { keepalive: true }],
    ]);
    sharing.pageShown();
    await settled();
    expect(hub.published.map((p) => p.event)).toEqual(['Patient-open', 'Patient-close', 'Patient-open']);
  });

  it('stop disconnects, unsubscribes, stops retrying and publishes nothing more', async () => {
    sharing.start();
    await settled();
    sharing.stop();
    await settled();
    expect(hub.disconnects).toBe(1);
    expect(hub.unsubscribed).toHaveLength(1);
    hub.handlers?.onClose?.();
    jest.advanceTimersByTime(10_000);
    sharing.view(patient('p1'))();
    hub.deliver('Patient-open', [patientEntry('p4')]);
    await settled();
    expect(hub.subscriptions).toHaveLength(1);
    expect(hub.published).toEqual([]);
    expect(followed).toEqual([]);
  });
});
