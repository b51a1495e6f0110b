// Medplum's own SDK as the referee for message threads: MedplumClient 5.2.13,
// unchanged, signed in as Maria, makes the calls that @medplum/react 5.2.13's thread components
// make (read from the published package's sources): ThreadInbox (useThreadInbox in
// @medplum/react-hooks) lists thread headers with `part-of:missing=true`, `identifier:not` and
// `_has:Communication:part-of:_id:not=null`, then each thread's last message over GraphQL;
// ThreadChat (BaseChat) lists a thread's messages with `part-of=...&_sort=-sent&sent:missing=false`,
// subscribes to `Communication?part-of=...`, creates a message `partOf` the thread and PATCHes the
// header's `sent`. Aisha's thread is refused to her.
import './support/node-websocket';
import type { MedplumClient, SubscriptionEmitter, SubscriptionEventMap } from '@medplum/core';
import type { Bundle, Communication, Patient, Practitioner, Reference } from '@medplum/fhirtypes';
import { startClinic } from '../../server/operations/support/clinic';
import type { Clinic } from '../../server/operations/support/clinic';
import { databases } from '../../server/support/test-databases';
import { outcomeOf, rejectionOf, signedInClient } from './support/medplum-client';

describe.each(databases())("Medplum's thread components' calls, as Maria, on %s", (_engine, kind) => {
  let clinic: Clinic;
  let maria: MedplumClient;
  let chen: MedplumClient;
  let mariaRef: string;
  let mariaThread: Communication;
  let aishaThread: Communication;

  /** useThreadInbox's header search, with the query a patient-facing inbox passes. */
  function inboxParams(query: string): URLSearchParams {
    const params = new URLSearchParams(query);
    params.append('identifier:not', 'http://medplum.com/ai-message|');
    params.append('part-of:missing', 'true');
    params.append('_has:Communication:part-of:_id:not', 'null');
    return params;
  }

  /** BaseChat's message search for ThreadChat's query. */
  function chatParams(thread: Communication): URLSearchParams {
    const params = new URLSearchParams(`part-of=Communication/${thread.id}`);
    params.append('_sort', '-sent');
    params.append('sent:missing', 'false');
    return params;
  }

  beforeAll(async () => {
    clinic = await startClinic(kind);
    [maria, chen] = await Promise.all(
      [clinic.maria, clinic.chen].map((tokens) => signedInClient(clinic.server.baseUrl, tokens)),
    );
    mariaRef = clinic.maria.profile?.reference as string;
    const aishaRef = clinic.aisha.profile?.reference as string;
    mariaThread = (await chen.searchOne('Communication', {
      'part-of:missing': true,
      subject: mariaRef,
    })) as Communication;
    aishaThread = (await chen.searchOne('Communication', {
      'part-of:missing': true,
      subject: aishaRef,
    })) as Communication;
    expect([mariaThread?.id, aishaThread?.id]).toEqual([expect.any(String), expect.any(String)]);
  }, 120_000);

  afterAll(async () => {
    maria?.getSubscriptionManager().closeWebSocket();
    await clinic?.server.close();
  });

  test("ThreadInbox's search lists her one thread header (with messages), never Aisha's", async () => {
    const bundle = await maria.search(
      'Communication',
      inboxParams(`subject=${mariaRef}&_sort=-_lastUpdated`).toString(),
      {
        cache: 'no-cache',
      },
    );
    const headers = (bundle.entry ?? []).map((e) => e.resource as Communication);
    expect(headers.map((h) => [h.id, h.topic?.text, h.status, h.partOf])).toEqual([
      [mariaThread.id, 'Questions for Dr. Chen', 'in-progress', undefined],
    ]);
    // Without the subject filter too: what she may see are her own threads only.
    const all = await maria.searchResources('Communication', inboxParams('_count=20'));
    expect(all.map((h) => h.id)).toEqual([mariaThread.id]);
    expect(
      await maria.searchResources('Communication', inboxParams(`subject=${aishaThread.subject?.reference}`)),
    ).toHaveLength(0);
  });

  test("ThreadInbox's GraphQL: each thread's last message by CommunicationList(part_of, _sort: -sent, _count: 1)", async () => {
    const alias = `thread_${(mariaThread.id as string).replaceAll('-', '')}`;
    const response = (await maria.graphql(`
      query {
        ${alias}: CommunicationList(part_of: "Communication/${mariaThread.id}", _sort: "-sent", _count: 1) {
          id meta { lastUpdated } partOf { reference } sender { display reference } payload { contentString } sent status
        }
      }`)) as { data: Record<string, Communication[]> };
    const [last] = response.data[alias];
    expect(response.data[alias]).toHaveLength(1);
    expect(last.partOf).toEqual([{ reference: `Communication/${mariaThread.id}` }]);
    const messages = await maria.searchResources('Communication', chatParams(mariaThread));
    expect(last.id).toBe(messages[0].id);
  });

  test("ThreadChat's search: her thread's messages newest first, every one sent and partOf it", async () => {
    const messages = await maria.searchResources('Communication', chatParams(mariaThread), {
      cache: 'no-cache',
    });
    expect(messages.length).toBeGreaterThanOrEqual(10);
    const sent = messages.map((m) => m.sent as string);
    expect([...sent].sort().reverse()).toEqual(sent);
    expect(new Set(messages.map((m) => m.partOf?.[0]?.reference))).toEqual(
      new Set([`Communication/${mariaThread.id}`]),
    );
    expect(new Set(messages.map((m) => m.sender?.display))).toEqual(
      new Set(['Maria Garcia', 'Dr. Lily Chen']),
    );
    expect(await maria.searchResources('Communication', chatParams(aishaThread))).toHaveLength(0);
  });

  test('ThreadChat sends: createResource partOf the thread (201), then patchResource of the header (200)', async () => {
    const profile = maria.getProfile() as { resourceType: 'Patient'; id: string };
    const sender: Reference<Patient> = { reference: `Patient/${profile.id}` };
    const message = await maria.createResource<Communication>({
      resourceType: 'Communication',
      status: 'in-progress',
      sender,
      recipient: mariaThread.recipient?.filter((r) => r.reference !== mariaRef) ?? [],
      sent: new Date().toISOString(),
      payload: [{ contentString: 'Is it normal to feel the baby hiccup?' }],
      partOf: [{ reference: `Communication/${mariaThread.id}` }],
      subject: mariaThread.subject,
    });
    expect(message).toMatchObject({
      id: expect.any(String),
      partOf: [{ reference: `Communication/${mariaThread.id}` }],
    });
    const header = await maria.patchResource('Communication', mariaThread.id as string, [
      { op: 'add', path: '/sent', value: message.sent },
    ]);
    expect(header).toMatchObject({
      id: mariaThread.id,
      sent: message.sent,
      topic: { text: 'Questions for Dr. Chen' },
    });
    const [newest] = await maria.searchResources('Communication', chatParams(mariaThread), {
      cache: 'no-cache',
    });
    expect(newest.id).toBe(message.id);
  });

  test("ThreadChat's subscription: Dr. Chen's reply reaches her live", async () => {
    const criteria = `Communication?part-of=Communication/${mariaThread.id}`;
    const emitter: SubscriptionEmitter = maria.subscribeToCriteria(criteria);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('not connected within 10 s')), 10_000);
        emitter.addEventListener('connect', () => {
          clearTimeout(timer);
          resolve();
        });
        emitter.addEventListener('error', (event: SubscriptionEventMap['error']) => {
          clearTimeout(timer);
          reject(event.payload);
        });
      });
      const received = new Promise<Bundle>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no notification within 10 s')), 10_000);
        emitter.addEventListener('message', (event: SubscriptionEventMap['message']) => {
          clearTimeout(timer);
          resolve(event.payload);
        });
      });
      const reply = await chen.createResource<Communication>({
        resourceType: 'Communication',
        status: 'in-progress',
        sender: mariaThread.recipient?.find((r) =>
          r.reference?.startsWith('Practitioner/'),
        ) as Reference<Practitioner>,
        recipient: [{ reference: mariaRef }],
        sent: new Date().toISOString(),
        payload: [{ contentString: 'Yes, hiccups are a good sign of a developing diaphragm.' }],
        partOf: [{ reference: `Communication/${mariaThread.id}` }],
        subject: mariaThread.subject,
      });
      const bundle = await received;
      // BaseChat reads the message as the notification Bundle's second entry.
      expect(bundle.entry?.[1]?.resource).toMatchObject({ resourceType: 'Communication', id: reply.id });
    } finally {
      maria.unsubscribeFromCriteria(criteria);
    }
  }, 30_000);

  test("Aisha's thread is refused to her: read 404, patch 404, a message into it 400", async () => {
    const read = await rejectionOf(maria.readResource('Communication', aishaThread.id as string));
    expect(outcomeOf(read)[0]).toMatchObject({ code: 'not-found' });
    const patched = await rejectionOf(
      maria.patchResource('Communication', aishaThread.id as string, [
        { op: 'add', path: '/sent', value: new Date().toISOString() },
      ]),
    );
    expect(outcomeOf(patched)[0]).toMatchObject({ code: 'not-found' });
    const created = await rejectionOf(
      maria.createResource<Communication>({
        resourceType: 'Communication',
        status: 'in-progress',
        partOf: [{ reference: `Communication/${aishaThread.id}` }],
        subject: { reference: mariaRef },
        sender: { reference: mariaRef },
        payload: [{ contentString: 'Into the wrong thread' }],
        sent: new Date().toISOString(),
      }),
    );
    expect(outcomeOf(created)[0]).toMatchObject({
      code: 'invalid',
      text: `Communication.partOf[0]: Communication/${aishaThread.id} not found`,
    });
  });
});
