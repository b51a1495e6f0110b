// Subscription → Bot over real HTTP ("A Subscription whose channel endpoint is
// Bot/{id} runs the bot on each matching write, through the live engine, with retries and a
// visible failure log"): the demo clinic, real sign-ins, bots deployed by the admin. A matching
// write runs the bot (its effect: a Task it creates; an AuditEvent naming the Subscription), a
// non-matching one does not; a failing bot is retried with backoff and left 'failed' with one
// AuditEvent per attempt; a bot that fails once then works succeeds on its retry; the author's
// access rules decide what runs (a patient's subscription never sees another patient's data, and
// cannot run a bot she cannot read); a deleted Subscription runs nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AuditEvent, Bot, Observation, Subscription, Task } from '@medplum/fhirtypes';
import { MAX_ATTEMPTS_URL } from '../../../src/server/bots/subscription-trigger';
import { BotJobStore } from '../../../src/server/bots/subscription-jobs';
import type { BotJob } from '../../../src/server/bots/subscription-jobs';
import type { Tokens } from '../auth/support/auth-fixtures';
import { call, deployBot, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import { databases } from '../support/test-databases';

const HEART_RATE = 'http://loinc.org|8867-4';

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(databases())('issue #10 Subscription → Bot through the live engine on %s', (_engine, kind) => {
  let clinic: Clinic;
  let binaryDir: string;
  let jobs: BotJobStore;

  async function subscribe(
    tokens: Tokens,
    bot: Bot,
    criteria: string,
    extra: Partial<Subscription> = {},
  ): Promise<Subscription> {
    const created = await call<Subscription>(clinic.server, 'POST', 'fhir/R4/Subscription', tokens, {
      body: {
        resourceType: 'Subscription',
        status: 'active',
        reason: 'Run a bot',
        criteria,
        channel: { type: 'rest-hook', endpoint: `Bot/${bot.id}` },
        ...extra,
      },
    });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function observe(
    tokens: Tokens,
    code: string,
    subject = clinic.maria.profile?.reference,
  ): Promise<Observation> {
    const created = await call<Observation>(clinic.server, 'POST', 'fhir/R4/Observation', tokens, {
      body: {
        resourceType: 'Observation',
        status: 'preliminary',
        code: { coding: [{ system: 'http://loinc.org', code }] },
        subject: { reference: subject },
        valueQuantity: { value: 80, unit: 'beats/minute' },
      },
    });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function tasksAbout(observation: Observation): Promise<Task[]> {
    const { rows } = await clinic.server.db.query<{ content: Task }>(
      `SELECT content FROM resource WHERE resource_type = 'Task' AND NOT deleted AND content->>'description' = $1`,
      [`Check Observation/${observation.id}`],
    );
    return rows.map((r) => r.content);
  }

  async function auditsOf(bot: Bot): Promise<AuditEvent[]> {
    const { rows } = await clinic.server.db.query<{ content: AuditEvent }>(
      `SELECT content FROM resource WHERE resource_type = 'AuditEvent' AND NOT deleted
         AND content->'source'->'observer'->>'reference' = $1 ORDER BY seq`,
      [`Bot/${bot.id}`],
    );
    return rows.map((r) => r.content);
  }

  const finished =
    (subscription: Subscription, count = 1) =>
    async (): Promise<BotJob[] | undefined> => {
      const list = await jobs.forSubscription(subscription.id as string);
      return list.length >= count &&
        list.every((j) => ['succeeded', 'failed', 'cancelled'].includes(j.status))
        ? list
        : undefined;
    };

  beforeAll(async () => {
    binaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bot-subs-'));
    clinic = await startClinic(
      kind,
      { BINARY_DIR: binaryDir },
      { botTriggerSettings: { retryDelayMs: 100, sweepIntervalMs: 500 } },
    );
    jobs = new BotJobStore(clinic.server.db);
  }, 60_000);

  afterAll(async () => {
    await clinic?.server.close();
    fs.rmSync(binaryDir, { recursive: true, force: true });
  });

  it('a matching write runs the bot with the resource as input; a non-matching write does not', async () => {
    const bot = await deployBot(
      clinic,
      'Heart rate follow-up',
      `exports.handler = async (medplum, event) => {
         await medplum.createResource({ resourceType: 'Task', status: 'requested', intent: 'order',
           description: 'Check ' + event.input.resourceType + '/' + event.input.id });
         console.log('content type', event.contentType);
         return 'ok';
       };`,
    );
    const subscription = await subscribe(clinic.admin, bot, `Observation?code=${HEART_RATE}`);
    const other = await observe(clinic.chen, '29463-7');
    const matching = await observe(clinic.chen, '8867-4');
    const tasks = await waitFor(async () => {
      const found = await tasksAbout(matching);
      return found.length > 0 ? found : undefined;
    }, 'the bot’s Task');
    expect(tasks).toHaveLength(1);
    expect(tasks[0].meta?.author?.reference).toBe(`Bot/${bot.id}`);
    const [job] = await waitFor(finished(subscription), 'the job');
    expect(job).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(await tasksAbout(other)).toEqual([]);
    expect((await jobs.forSubscription(subscription.id as string)).length).toBe(1);
    const audits = await auditsOf(bot);
    expect(audits).toHaveLength(1);
    expect(audits[0].outcome).toBe('0');
    expect(audits[0].outcomeDesc).toContain(
      `Subscription/${subscription.id} on Observation/${matching.id}: attempt 1 of 3`,
    );
    expect(audits[0].outcomeDesc).toContain('content type application/fhir+json');
    expect(audits[0].entity?.map((e) => e.what?.reference)).toEqual([
      `Bot/${bot.id}`,
      `Subscription/${subscription.id}`,
      `Observation/${matching.id}`,
    ]);
  });

  it('a failing bot is retried with backoff, then its job is failed with one AuditEvent per attempt', async () => {
    const bot = await deployBot(
      clinic,
      'Flaky lab link',
      `exports.handler = async () => { throw new Error('lab system down'); };`,
    );
    const subscription = await subscribe(clinic.admin, bot, `Observation?code=${HEART_RATE}`, {
      extension: [{ url: MAX_ATTEMPTS_URL, valueInteger: 3 }],
    });
    const started = Date.now();
    const observation = await observe(clinic.chen, '8867-4');
    const [job] = await waitFor(finished(subscription), 'the failed job');
    expect(job).toMatchObject({ status: 'failed', attempts: 3 });
    expect(job.lastError).toContain('lab system down');
    // Backoff: 100 ms then 200 ms between the three attempts.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    const audits = await auditsOf(bot);
    expect(audits.map((a) => a.outcome)).toEqual(['4', '4', '4']);
    expect(audits.map((a) => /attempt (\d) of 3/.exec(a.outcomeDesc ?? '')?.[1])).toEqual(['1', '2', '3']);
    expect(audits[2].outcomeDesc).toContain('lab system down');
    expect(audits[2].outcomeDesc).toContain(`Observation/${observation.id}`);
  });

  it('a bot that fails once succeeds on its retry', async () => {
    const bot = await deployBot(
      clinic,
      'Second time lucky',
      `exports.handler = async (medplum, event) => {
         const seen = await medplum.searchOne('Basic', { code: 'retry-marker-' + event.input.id });
         if (!seen) {
           await medplum.createResource({ resourceType: 'Basic', code: { coding: [{ code: 'retry-marker-' + event.input.id }] } });
           throw new Error('not yet');
         }
         return 'done';
       };`,
    );
    const subscription = await subscribe(clinic.admin, bot, `Observation?code=${HEART_RATE}`);
    await observe(clinic.chen, '8867-4');
    const [job] = await waitFor(finished(subscription), 'the retried job');
    expect(job).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect((await auditsOf(bot)).map((a) => a.outcome)).toEqual(['4', '0']);
  });

  it("the author's access rules apply: a patient's subscription sees only her data and cannot run a bot she cannot read", async () => {
    const bot = await deployBot(clinic, 'Admin only', `exports.handler = async () => 'ran';`);
    const subscription = await subscribe(clinic.maria, bot, 'Observation', {
      extension: [{ url: MAX_ATTEMPTS_URL, valueInteger: 1 }],
    });
    await observe(clinic.chen, '8867-4', clinic.aisha.profile?.reference);
    await observe(clinic.chen, '8867-4', clinic.maria.profile?.reference);
    const list = await waitFor(finished(subscription), 'the patient’s job');
    // Only Maria's own Observation made a job; it fails because her policy does not reach the bot.
    expect(list).toHaveLength(1);
    expect(list[0].status).toBe('failed');
    expect(list[0].lastError).toBe(`Bot/${bot.id} is not readable by the Subscription’s author`);
    expect(await auditsOf(bot)).toEqual([]);
  });

  it('a deleted or off Subscription runs nothing', async () => {
    const bot = await deployBot(clinic, 'Retired', `exports.handler = async () => 'ran';`);
    const deleted = await subscribe(clinic.admin, bot, `Observation?code=${HEART_RATE}`);
    const off = await subscribe(clinic.admin, bot, `Observation?code=${HEART_RATE}`, { status: 'off' });
    const removed = await call(clinic.server, 'DELETE', `fhir/R4/Subscription/${deleted.id}`, clinic.admin);
    expect(removed.status).toBe(200);
    // A later subscription to the same bot proves the write was heard and handled meanwhile.
    const witness = await subscribe(clinic.admin, bot, `Observation?code=${HEART_RATE}`);
    await observe(clinic.chen, '8867-4');
    await waitFor(finished(witness), 'the witness job');
    expect(await jobs.forSubscription(deleted.id as string)).toEqual([]);
    expect(await jobs.forSubscription(off.id as string)).toEqual([]);
  });
});
