// Message threads in the demo clinic:
// a thread header is a Communication without partOf, each message is partOf it. A patient reads
// the threads she is part of, updates (PUT/PATCH) a header she is the subject of, as Medplum's
// ThreadChat does after each message, and nothing else: no message, no other patient's thread,
// and no message of hers into another patient's thread. Real server over HTTP, real sign-ins.
import type { Bundle, Communication, OperationOutcome } from '@medplum/fhirtypes';
import { call, searchAs, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import type { Tokens } from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';

/** A write's answer: the stored Communication, or an OperationOutcome's issues. */
type Written = Communication & Pick<OperationOutcome, 'issue'>;

describe.each(databases())('issue #20 message threads and who may write them, on %s', (_engine, kind) => {
  let clinic: Clinic;
  let maria: string;
  let aisha: string;
  let mariaThread: Communication;
  let aishaThread: Communication;

  const search = (tokens: Tokens, query: string) =>
    searchAs<Communication>(clinic.server, tokens, 'Communication', query);

  function patch(tokens: Tokens, id: string, operations: unknown[]) {
    return call<Written>(clinic.server, 'PATCH', `fhir/R4/Communication/${id}`, tokens, {
      body: operations,
      contentType: 'application/json-patch+json',
    });
  }

  function put(tokens: Tokens, resource: Communication) {
    return call<Written>(clinic.server, 'PUT', `fhir/R4/Communication/${resource.id}`, tokens, {
      body: resource,
    });
  }

  function post(tokens: Tokens, resource: Communication) {
    return call<Written>(clinic.server, 'POST', 'fhir/R4/Communication', tokens, {
      body: resource,
    });
  }

  function message(from: string, thread: Communication, text: string): Communication {
    return {
      resourceType: 'Communication',
      status: 'in-progress',
      partOf: [{ reference: `Communication/${thread.id}` }],
      subject: { reference: from },
      sender: { reference: from },
      // The care team only: naming the thread's patient would already put it in her compartment.
      recipient: thread.recipient?.filter((r) => !r.reference?.startsWith('Patient/')),
      payload: [{ contentString: text }],
      sent: new Date().toISOString(),
    };
  }

  beforeAll(async () => {
    clinic = await startClinic(kind);
    maria = clinic.maria.profile?.reference as string;
    aisha = clinic.aisha.profile?.reference as string;
    [mariaThread] = await search(clinic.chen, `part-of:missing=true&subject=${maria}`);
    [aishaThread] = await search(clinic.chen, `part-of:missing=true&subject=${aisha}`);
    expect([mariaThread?.topic?.text, aishaThread?.topic?.text]).toEqual([
      'Questions for Dr. Chen',
      'Questions for Dr. Chen',
    ]);
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  test('the demo threads: one header per patient, its messages partOf it, the practitioner among the recipients', async () => {
    for (const [patient, thread, count] of [
      [maria, mariaThread, 10],
      [aisha, aishaThread, 2],
    ] as const) {
      expect(thread).toMatchObject({ status: 'in-progress', subject: { reference: patient } });
      expect(thread.partOf).toBeUndefined();
      expect(thread.recipient?.map((r) => r.reference)).toEqual([
        patient,
        expect.stringMatching(/^Practitioner\//),
      ]);
      const messages = await search(clinic.chen, `part-of=Communication/${thread.id}&_sort=sent`);
      expect(messages).toHaveLength(count);
      expect(messages.every((m) => m.partOf?.[0]?.reference === `Communication/${thread.id}`)).toBe(true);
      expect(thread.sent).toBe(messages[messages.length - 1].sent);
    }
  });

  test("a patient lists only her own threads and their messages; another patient's thread is 404", async () => {
    expect((await search(clinic.maria, 'part-of:missing=true')).map((t) => t.id)).toEqual([mariaThread.id]);
    expect((await search(clinic.aisha, 'part-of:missing=true')).map((t) => t.id)).toEqual([aishaThread.id]);
    expect(await search(clinic.maria, `part-of=Communication/${mariaThread.id}`)).toHaveLength(10);
    expect(await search(clinic.maria, `part-of=Communication/${aishaThread.id}`)).toHaveLength(0);
    const read = await call(clinic.server, 'GET', `fhir/R4/Communication/${aishaThread.id}`, clinic.maria);
    expect(read.status).toBe(404);
  });

  test("a patient PATCHes her thread header as Medplum's ThreadChat does (200), and PUTs its status", async () => {
    const sent = new Date().toISOString();
    const patched = await patch(clinic.maria, mariaThread.id as string, [
      { op: 'add', path: '/sent', value: sent },
    ]);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: mariaThread.id,
      sent,
      topic: { text: 'Questions for Dr. Chen' },
    });
    const updated = await put(clinic.aisha, { ...aishaThread, status: 'on-hold' });
    expect(updated.status).toBe(200);
    expect(updated.body.status).toBe('on-hold');
    const back = await put(clinic.aisha, { ...updated.body, status: 'in-progress' });
    expect(back.status).toBe(200);
  });

  test("a patient never updates another patient's thread header: 404, as if it did not exist", async () => {
    const patched = await patch(clinic.maria, aishaThread.id as string, [
      { op: 'add', path: '/sent', value: '2026-01-01T00:00:00Z' },
    ]);
    expect(patched.status).toBe(404);
    expect((await put(clinic.maria, { ...aishaThread, status: 'stopped' })).status).toBe(404);
    expect(
      (await patch(clinic.aisha, mariaThread.id as string, [{ op: 'remove', path: '/topic' }])).status,
    ).toBe(404);
    const [unchanged] = await search(clinic.chen, `_id=${aishaThread.id}`);
    expect(unchanged.status).toBe('in-progress');
  });

  test('a header stays a header about the same patient: adding partOf or another subject is refused', async () => {
    const intoAnother = await patch(clinic.maria, mariaThread.id as string, [
      { op: 'add', path: '/partOf', value: [{ reference: `Communication/${aishaThread.id}` }] },
    ]);
    expect(intoAnother.status).toBe(403);
    const intoOwn = await patch(clinic.maria, mariaThread.id as string, [
      { op: 'add', path: '/partOf', value: [{ reference: `Communication/${mariaThread.id}` }] },
    ]);
    expect(intoOwn.status).toBe(403);
    const toAisha = await patch(clinic.maria, mariaThread.id as string, [
      { op: 'replace', path: '/subject', value: { reference: aisha } },
    ]);
    expect(toAisha.status).toBe(403);
  });

  test("messages stay as sent: a patient updates neither the practitioner's nor her own (403)", async () => {
    const messages = await search(clinic.maria, `part-of=Communication/${mariaThread.id}&_sort=sent`);
    const fromChen = messages.find((m) => m.sender?.reference?.startsWith('Practitioner/')) as Communication;
    const fromMaria = messages.find((m) => m.sender?.reference === maria) as Communication;
    const edit = [{ op: 'replace', path: '/payload/0/contentString', value: 'Edited' }];
    expect((await patch(clinic.maria, fromChen.id as string, edit)).status).toBe(403);
    expect((await patch(clinic.maria, fromMaria.id as string, edit)).status).toBe(403);
    expect((await put(clinic.maria, { ...fromChen, status: 'stopped' })).status).toBe(403);
    // Removing partOf would make a message look like a header she could then rewrite.
    expect(
      (await patch(clinic.maria, fromMaria.id as string, [{ op: 'remove', path: '/partOf' }])).status,
    ).toBe(403);
  });

  test("a patient's message joins her own thread (201), never another patient's or a missing one (400)", async () => {
    const created = await post(
      clinic.maria,
      message(maria, mariaThread, 'A new question about my glucose log.'),
    );
    expect(created.status).toBe(201);
    expect(created.body.partOf).toEqual([{ reference: `Communication/${mariaThread.id}` }]);
    expect((await search(clinic.chen, `part-of=Communication/${mariaThread.id}`)).map((m) => m.id)).toContain(
      created.body.id,
    );

    const intoAisha = await post(clinic.maria, message(maria, aishaThread, 'Sneaking into Aisha'));
    expect(intoAisha.status).toBe(400);
    expect(intoAisha.body.issue?.[0]).toMatchObject({
      code: 'invalid',
      details: { text: `Communication.partOf[0]: Communication/${aishaThread.id} not found` },
    });
    // Naming Aisha too (as ThreadChat copies the thread's recipients) is refused as well.
    const naming = await post(clinic.maria, {
      ...message(maria, aishaThread, 'Hi'),
      recipient: aishaThread.recipient,
    });
    expect(naming.status).toBe(403);
    const missing = await post(
      clinic.maria,
      message(maria, { ...mariaThread, id: 'no-such-thread' }, 'Lost'),
    );
    expect(missing.status).toBe(400);
    expect(missing.body.issue?.[0]?.details?.text).toBe(
      'Communication.partOf[0]: Communication/no-such-thread not found',
    );
    // The same through a PUT that creates, and through a transaction Bundle.
    const putNew = await put(clinic.maria, {
      ...message(maria, aishaThread, 'Via PUT'),
      id: 'maria-put-into-aisha',
    });
    expect(putNew.status).toBe(400);
    const bundle = await call<Bundle>(clinic.server, 'POST', 'fhir/R4', clinic.maria, {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            request: { method: 'POST', url: 'Communication' },
            resource: message(maria, aishaThread, 'Via a transaction'),
          },
        ],
      },
    });
    expect(bundle.status).toBe(400);
    expect(await search(clinic.chen, `part-of=Communication/${aishaThread.id}`)).toHaveLength(2);
  });

  test('a patient opens a new thread of her own (Medplum NewTopicDialog shape) and updates it', async () => {
    const opened = await post(clinic.aisha, {
      resourceType: 'Communication',
      status: 'in-progress',
      subject: { reference: aisha },
      sender: { reference: aisha },
      recipient: [
        { reference: aisha },
        ...(aishaThread.recipient ?? []).filter((r) => r.reference !== aisha),
      ],
      topic: { text: 'Travel in the third trimester' },
    });
    expect(opened.status).toBe(201);
    const first = await post(clinic.aisha, message(aisha, opened.body, 'Can I fly at 30 weeks?'));
    expect(first.status).toBe(201);
    const patched = await patch(clinic.aisha, opened.body.id as string, [
      { op: 'add', path: '/sent', value: first.body.sent },
    ]);
    expect(patched.status).toBe(200);
    // A header naming another patient as subject is not hers to create.
    const forMaria = await post(clinic.aisha, {
      ...opened.body,
      id: undefined,
      subject: { reference: maria },
    });
    expect(forMaria.status).toBe(403);
  });

  test('the practitioner still updates any message of the clinic (his rights are unchanged)', async () => {
    const [anyMessage] = await search(clinic.chen, `part-of=Communication/${aishaThread.id}&_count=1`);
    const updated = await patch(clinic.chen, anyMessage.id as string, [
      { op: 'add', path: '/received', value: new Date().toISOString() },
    ]);
    expect(updated.status).toBe(200);
  });
});
