// Read receipts in the demo threads: Medplum's ThreadChat, in a two-person
// thread, marks each message it receives with `received` and status completed (a PUT of the whole
// message). The demo patient policy lets Maria do that for a message to her, and nothing more: not
// on her own messages, not with any other change, not on another patient's thread.
import type { Communication } from '@medplum/fhirtypes';
import { call, searchAs, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import type { Tokens } from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';

describe.each(databases())('read receipts of thread messages, on %s', (_engine, kind) => {
  let clinic: Clinic;
  let maria: string;
  let mariaMessages: Communication[];

  const search = (tokens: Tokens, query: string) =>
    searchAs<Communication>(clinic.server, tokens, 'Communication', query);

  function put(tokens: Tokens, resource: Communication) {
    return call<Communication>(clinic.server, 'PUT', `fhir/R4/Communication/${resource.id}`, tokens, {
      body: resource,
    });
  }

  /** What ThreadChat's onMessageReceived writes. */
  function receipt(message: Communication): Communication {
    return { ...message, received: new Date().toISOString(), status: 'completed' };
  }

  beforeAll(async () => {
    clinic = await startClinic(kind);
    maria = clinic.maria.profile?.reference as string;
    const [thread] = await search(clinic.chen, `part-of:missing=true&subject=${maria}`);
    mariaMessages = await search(clinic.maria, `part-of=Communication/${thread.id}&_sort=sent`);
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  test("Maria marks Dr. Chen's message to her received (200), as ThreadChat does", async () => {
    const fromChen = mariaMessages.find((m) => m.sender?.reference?.startsWith('Practitioner/'));
    if (!fromChen) throw new Error('the demo thread has no message from Dr. Chen');
    const written = await put(clinic.maria, receipt(fromChen));
    expect(written.status).toBe(200);
    expect(written.body).toMatchObject({ status: 'completed', payload: fromChen.payload });
    expect(written.body.received).toBeDefined();
  });

  test('a receipt that changes anything else, or of her own message, is refused (403)', async () => {
    const fromChen = mariaMessages.find((m) => m.sender?.reference?.startsWith('Practitioner/'));
    const fromMaria = mariaMessages.find((m) => m.sender?.reference === maria);
    if (!fromChen || !fromMaria) throw new Error('the demo thread lacks a message from each side');
    const edited = { ...receipt(fromChen), payload: [{ contentString: 'Edited' }] };
    expect((await put(clinic.maria, edited)).status).toBe(403);
    expect((await put(clinic.maria, { ...receipt(fromChen), sent: '2020-01-01T00:00:00Z' })).status).toBe(
      403,
    );
    expect((await put(clinic.maria, { ...receipt(fromChen), status: 'stopped' })).status).toBe(403);
    expect((await put(clinic.maria, receipt(fromMaria))).status).toBe(403);
  });

  test("Maria never marks a message in Aisha's thread (404, as if it did not exist)", async () => {
    const aisha = clinic.aisha.profile?.reference as string;
    const [thread] = await search(clinic.chen, `part-of:missing=true&subject=${aisha}`);
    const messages = await search(clinic.chen, `part-of=Communication/${thread.id}`);
    const toAisha = messages.find((m) => m.sender?.reference?.startsWith('Practitioner/'));
    if (!toAisha) throw new Error("Aisha's demo thread has no message from Dr. Chen");
    expect((await put(clinic.maria, receipt(toAisha))).status).toBe(404);
  });
});
