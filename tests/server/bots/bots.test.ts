// Bots over real HTTP (SPEC §6, §7 Bot $execute): the demo clinic seeded,
// real sign-ins; project admins create and deploy bots, others are refused; $execute by id and by
// identifier with JSON, text and other bodies; the bot's FHIR client writes as the bot's own
// membership; a patient whose policy does not reach the bot cannot run it; hostile code is stopped
// with a clear outcome and the next run works; every run leaves an AuditEvent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  AccessPolicy,
  AuditEvent,
  Bot,
  Bundle,
  Observation,
  ProjectMembership,
} from '@medplum/fhirtypes';
import { findMembershipsByUser } from '../../../src/server/repo/lookups';
import { seedDemoClinic } from '../../../src/server/seed';
import { Repository, systemContext } from '../../../src/server/repo';
import { signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { call as httpCall } from '../operations/support/clinic';
import type { HttpResponse } from '../operations/support/clinic';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

const DEMO_PASSWORD = 'bloom-demo';

type Answer<T> = HttpResponse<T> & { contentType: string };

describe.each(databases())('issue #10 bots over HTTP (SPEC §7 Bot $execute) on %s', (_engine, kind) => {
  let server: TestServer;
  let binaryDir: string;
  let admin: Tokens;
  let chen: Tokens;
  let maria: Tokens;

  /** A FHIR request as `tokens`' caller; a string body is sent as is with its content type. */
  const call = async <T = Record<string, unknown>>(
    method: string,
    urlPath: string,
    tokens: Tokens,
    body?: string,
    contentType = 'application/fhir+json',
  ): Promise<Answer<T>> => {
    const response = await httpCall<T>(server, method, `fhir/R4/${urlPath}`, tokens, { body, contentType });
    return { ...response, contentType: response.headers.get('content-type') ?? '' };
  };

  async function createBot(fields: Partial<Bot>, code: string): Promise<Bot> {
    const created = await call<Bot>(
      'POST',
      'Bot',
      admin,
      JSON.stringify({ resourceType: 'Bot', name: 'Test bot', ...fields }),
    );
    expect(created.status).toBe(201);
    const deployed = await call(
      'POST',
      `Bot/${created.body.id}/$deploy`,
      admin,
      JSON.stringify({ code, filename: 'bot.js' }),
      'application/json',
    );
    expect(deployed.status).toBe(200);
    return created.body;
  }

  beforeAll(async () => {
    binaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bots-'));
    server = await startTestServer(kind, { BINARY_DIR: binaryDir }, { requireAuth: true });
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEMO_PASSWORD });
    [admin, chen, maria] = await Promise.all(
      ['admin', 'dr.chen', 'maria'].map((name) =>
        signIn(server.baseUrl, `${name}@bloom.example`, DEMO_PASSWORD),
      ),
    );
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    fs.rmSync(binaryDir, { recursive: true, force: true });
  });

  it('refuses bot writes and deploys by non-admins (403), and a deploy without code (400)', async () => {
    const byChen = await call('POST', 'Bot', chen, JSON.stringify({ resourceType: 'Bot', name: 'Sneaky' }));
    expect(byChen.status).toBe(403);
    expect(byChen.text).toContain('Only project admins');
    const bot = await createBot({}, 'exports.handler = async () => 1;');
    const deploy = await call(
      'POST',
      `Bot/${bot.id}/$deploy`,
      chen,
      JSON.stringify({ code: 'exports.handler = async () => 2;' }),
      'application/json',
    );
    expect(deploy.status).toBe(403);
    const update = await call('PUT', `Bot/${bot.id}`, chen, JSON.stringify({ ...bot, name: 'Renamed' }));
    expect(update.status).toBe(403);
    const batch = await call<Bundle>(
      'POST',
      '',
      chen,
      JSON.stringify({
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          { request: { method: 'POST', url: 'Bot' }, resource: { resourceType: 'Bot', name: 'Batch sneak' } },
        ],
      }),
    );
    expect(batch.status).toBe(403);
    const empty = await call(
      'POST',
      `Bot/${bot.id}/$deploy`,
      admin,
      JSON.stringify({ filename: 'x.js' }),
      'application/json',
    );
    expect(empty.status).toBe(400);
    const stored = await call<Bot>('GET', `Bot/${bot.id}`, admin);
    expect(stored.body.executableCode).toMatchObject({
      contentType: 'application/javascript',
      // Stored as Binary/{id}; REST answers a readable Binary as a signed URL.
      url: expect.stringMatching(/\/storage\/[A-Za-z0-9\-.]+\?Expires=\d+&Signature=/),
      title: 'bot.js',
    });
  });

  it('executes by id with JSON and text input, by identifier, and answers the output', async () => {
    const bot = await createBot(
      { identifier: [{ system: 'https://bloom.example/bots', value: 'echo-1' }] },
      `exports.handler = async (medplum, event) => {
        console.log('input type', event.contentType);
        return typeof event.input === 'string' ? 'text:' + event.input : { echo: event.input, bot: event.bot.reference };
      };`,
    );
    const json = await call(
      'POST',
      `Bot/${bot.id}/$execute`,
      chen,
      JSON.stringify({ a: 1 }),
      'application/json',
    );
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ echo: { a: 1 }, bot: `Bot/${bot.id}` });
    const text = await call('POST', `Bot/${bot.id}/$execute`, chen, 'hello', 'text/plain');
    expect(text).toMatchObject({ status: 200, text: 'text:hello' });
    expect(text.contentType).toMatch(/^text\/plain/);
    const hl7 = await call('POST', `Bot/${bot.id}/$execute`, chen, 'MSH|^~\\&|A', 'x-application/hl7-v2+er7');
    // HL7 v2 input reaches the bot as @medplum/core's Hl7Message (as in Medplum), not as text:
    // inside a JSON answer it is that object's JSON.
    const echoed = JSON.parse(hl7.text) as { echo: { context: Record<string, string> } };
    expect(echoed.echo.context).toMatchObject({ fieldSeparator: '|', componentSeparator: '^' });
    const byIdentifier = await call(
      'POST',
      `Bot/$execute?identifier=${encodeURIComponent('https://bloom.example/bots|echo-1')}`,
      chen,
      '{"b":2}',
      'application/json',
    );
    expect(byIdentifier.body).toEqual({ echo: { b: 2 }, bot: `Bot/${bot.id}` });
    const unknown = await call(
      'POST',
      `Bot/$execute?identifier=${encodeURIComponent('https://bloom.example/bots|nope')}`,
      chen,
      '{}',
      'application/json',
    );
    expect(unknown.status).toBe(404);
    const malformed = await call('POST', `Bot/$execute?identifier=nobar`, chen, '{}', 'application/json');
    expect(malformed.status).toBe(400);
    const badJson = await call('POST', `Bot/${bot.id}/$execute`, chen, '{not json', 'application/json');
    expect(badJson.status).toBe(400);
  });

  it("writes through its FHIR client as the bot's own membership, and records an AuditEvent", async () => {
    const bot = await createBot(
      {},
      `export async function handler(medplum, event) {
        const obs = await medplum.createResource({ resourceType: 'Observation', status: 'final', code: { text: event.input.text } });
        const found = await medplum.searchResources('Observation', { _id: obs.id });
        console.log('created', obs.id);
        return { id: obs.id, author: obs.meta.author.reference, found: found.length };
      }`,
    );
    const run = await call<{ id: string; author: string; found: number }>(
      'POST',
      `Bot/${bot.id}/$execute`,
      chen,
      JSON.stringify({ text: 'bot-made' }),
      'application/json',
    );
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ author: `Bot/${bot.id}`, found: 1 });
    const obs = await call<Observation>('GET', `Observation/${run.body.id}`, admin);
    expect(obs.body.code?.text).toBe('bot-made');
    const audits = await call<Bundle<AuditEvent>>('GET', `AuditEvent?entity=Bot/${bot.id}`, admin);
    const audit = audits.body.entry?.[0]?.resource;
    expect(audit).toMatchObject({ outcome: '0', outcomeDesc: `created ${run.body.id}` });
    expect(audit?.agent?.[0]?.who?.reference).toBe(chen.profile?.reference);
    expect(Date.parse(audit?.period?.end ?? '')).toBeGreaterThanOrEqual(
      Date.parse(audit?.period?.start ?? ''),
    );
  });

  it("is limited by its own membership's access policy, not the caller's", async () => {
    const bot = await createBot(
      {},
      `exports.handler = async (medplum) => {
        const patients = await medplum.searchResources('Patient', { _count: 1 });
        let refused = 'no';
        try { await medplum.createResource({ resourceType: 'Observation', status: 'final', code: { text: 'x' } }); } catch (e) { refused = e.message; }
        return { patients: patients.length, refused };
      }`,
    );
    const unrestricted = await call<{ patients: number; refused: string }>(
      'POST',
      `Bot/${bot.id}/$execute`,
      admin,
      '{}',
      'application/json',
    );
    expect(unrestricted.body).toEqual({ patients: 1, refused: 'no' });
    const repo = new Repository(server.db, systemContext());
    const policy = await repo.createResource<AccessPolicy>({
      resourceType: 'AccessPolicy',
      name: 'Bot reads patients only',
      resource: [{ resourceType: 'Patient', readonly: true }],
    });
    const membership = (await findMembershipsByUser(server.db, `Bot/${bot.id}`))[0];
    await repo.updateResource<ProjectMembership>({
      ...membership,
      accessPolicy: { reference: `AccessPolicy/${policy.id}` },
    });
    // The admin runs it, but the bot acts as itself: reads allowed, the write refused.
    const limited = await call<{ patients: number; refused: string }>(
      'POST',
      `Bot/${bot.id}/$execute`,
      admin,
      '{}',
      'application/json',
    );
    expect(limited.status).toBe(200);
    expect(limited.body.patients).toBe(1);
    expect(limited.body.refused).toMatch(/forbidden|Forbidden|not allowed|access/i);
  });

  it('refuses a patient whose access policy does not reach the bot', async () => {
    const bot = await createBot({}, 'exports.handler = async () => "secret";');
    const byMaria = await call('POST', `Bot/${bot.id}/$execute`, maria, '{}', 'application/json');
    expect([403, 404]).toContain(byMaria.status);
    expect(byMaria.text).not.toContain('secret');
  });

  it('stops an endless loop and a memory bomb with a clear outcome, and the next run works', async () => {
    const loop = await createBot({ timeout: 1 }, 'exports.handler = async () => { for (;;) {} };');
    const stopped = await call<{ issue: { code: string; details: { text: string } }[] }>(
      'POST',
      `Bot/${loop.id}/$execute`,
      chen,
      '{}',
      'application/json',
    );
    expect(stopped.status).toBe(400);
    expect(stopped.body.issue[0]).toMatchObject({
      code: 'timeout',
      details: { text: expect.stringContaining('time limit of 1 s') },
    });
    const bomb = await createBot(
      {
        extension: [
          { url: 'https://bloom.example/fhir/StructureDefinition/bot-memory-limit-mb', valueInteger: 8 },
        ],
      },
      'exports.handler = async () => { const a = []; for (let i = 0; ; i++) a.push({ i }); };',
    );
    const oom = await call<{ issue: { code: string; details: { text: string } }[] }>(
      'POST',
      `Bot/${bomb.id}/$execute`,
      chen,
      '{}',
      'application/json',
    );
    expect(oom.status).toBe(400);
    expect(oom.body.issue[0].details.text).toContain('memory limit of 8 MB');
    const fine = await createBot(
      {},
      'exports.handler = async () => typeof process + "," + typeof require + "," + typeof fetch;',
    );
    const after = await call('POST', `Bot/${fine.id}/$execute`, chen, '{}', 'application/json');
    expect(after).toMatchObject({ status: 200, text: 'undefined,function,undefined' });
    const audits = await call<Bundle<AuditEvent>>('GET', `AuditEvent?entity=Bot/${loop.id}`, admin);
    expect(audits.body.entry?.[0]?.resource?.outcome).toBe('4');
  });
});
