// The platform client's service calls against the REAL server in-process (SPEC
// §7 Bot $execute, email/v1/send, invite), until now tested against a fake fetch only: the demo
// clinic seeded, sign-ins through BloomClient, no fakes between client and server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Bot } from '@medplum/fhirtypes';
import { BloomClient } from '../../src/client';
import { OperationOutcomeError } from '../../src/fhir/outcomes';
import { Repository, systemContext } from '../../src/server/repo';
import { seedDemoClinic } from '../../src/server/seed';
import { DEFAULT_DEMO_PASSWORD } from '../../src/server/seed/demo';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';
import { signedInClient } from './support/server-sign-in';

describe.each(databases())(
  'BloomClient services against the real server on %s (issue #10)',
  (_engine, kind) => {
    let server: TestServer;
    let dataDir: string;
    let admin: BloomClient;
    let chen: BloomClient;
    let maria: BloomClient;

    const signIn = (email: string): Promise<BloomClient> => signedInClient(server.baseUrl, email);

    /** A bot created and deployed by the clinic admin. */
    async function deployedBot(code: string, fields: Partial<Bot> = {}): Promise<Bot> {
      const bot = await admin.createResource<Bot>({
        resourceType: 'Bot',
        name: 'Client test bot',
        ...fields,
      });
      const response = await fetch(`${server.fhirUrl}Bot/${bot.id}/$deploy`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.getAccessToken()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ code, filename: 'bot.js' }),
      });
      expect(response.status).toBe(200);
      return bot;
    }

    beforeAll(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-client-services-'));
      server = await startTestServer(kind, { DATA_DIR: dataDir }, { requireAuth: true });
      await seedDemoClinic(new Repository(server.db, systemContext()), {
        demoPassword: DEFAULT_DEMO_PASSWORD,
      });
      [admin, chen, maria] = await Promise.all(
        ['admin', 'dr.chen', 'maria'].map((name) => signIn(`${name}@bloom.example`)),
      );
    }, 60_000);

    afterAll(async () => {
      await server?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    test('SPEC §7 executeBot by id with JSON, by identifier with text', async () => {
      const bot = await deployedBot(
        'exports.handler = async (medplum, event) => typeof event.input === "string" ? event.input.toUpperCase() : { sum: event.input.a + event.input.b };',
        { identifier: [{ system: 'https://bloom.example/bots', value: 'client-sum' }] },
      );
      expect(await chen.executeBot(bot.id as string, { a: 2, b: 3 })).toEqual({ sum: 5 });
      const text = await chen.executeBot(
        { system: 'https://bloom.example/bots', value: 'client-sum' },
        'hello',
        'text/plain',
      );
      expect(text).toBe('HELLO');
    });

    test('SPEC §8 executeBot rejects with the outcome text: a patient the bot is out of reach for, a bot past its time limit', async () => {
      const bot = await deployedBot('exports.handler = async () => "private";');
      await expect(maria.executeBot(bot.id as string, {})).rejects.toBeInstanceOf(OperationOutcomeError);
      const loop = await deployedBot('exports.handler = async () => { for (;;) {} };', { timeout: 1 });
      await expect(chen.executeBot(loop.id as string, {})).rejects.toThrow(/time limit of 1 s/);
      // The next execution works normally.
      expect(await chen.executeBot(bot.id as string, {})).toBe('private');
    });

    test('SPEC §7 sendEmail by an admin (to the outbox here), refused for a patient', async () => {
      const outcome = await admin.sendEmail({
        to: 'client-news@example.org',
        subject: 'Client news',
        text: 'Hello from the client',
      });
      expect(outcome).toMatchObject({ resourceType: 'OperationOutcome', id: 'ok' });
      const outbox = path.join(dataDir, 'outbox');
      const mails = fs.readdirSync(outbox).map((name) => fs.readFileSync(path.join(outbox, name), 'utf8'));
      expect(
        mails.some(
          (mail) => mail.includes('To: client-news@example.org') && mail.includes('Subject: Client news'),
        ),
      ).toBe(true);
      await expect(
        maria.sendEmail({ to: 'x@example.org', subject: 'no', text: 'no' }),
      ).rejects.toBeInstanceOf(OperationOutcomeError);
    });

    test('SPEC §7 invite by an admin answers the new membership; a patient is refused', async () => {
      const projectId = (admin.getProject()?.id ?? '') as string;
      const membership = await admin.invite(projectId, {
        resourceType: 'Practitioner',
        firstName: 'Ines',
        lastName: 'Client',
        email: `ines-${Date.now()}@example.org`,
      });
      expect(membership).toMatchObject({
        resourceType: 'ProjectMembership',
        profile: { reference: expect.stringMatching(/^Practitioner\//) },
      });
      await expect(
        maria.invite(projectId, {
          resourceType: 'Practitioner',
          firstName: 'No',
          lastName: 'Way',
          email: 'noway@example.org',
        }),
      ).rejects.toBeInstanceOf(OperationOutcomeError);
    });
  },
);
