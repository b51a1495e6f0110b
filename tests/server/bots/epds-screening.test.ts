// The EPDS alert path over real HTTP on both engines (SPEC §6
// roles, §7 Bot and Subscription calls): the demo clinic with the seeded EPDS, scoring Bot and
// Subscription. Maria's completed response is scored by the bot into an Observation (LOINC 99046-5,
// derivedFrom the response); a total of 13 or more, or item 10 above 0, raises a Flag on her and an
// urgent Communication to Dr. Chen, her general practitioner, which Dr. Chen's inbox query lists; a
// total of 12 raises nothing. Maria does not read the Flag; Aisha reads none of it. Her response also
// marks the mood check of her care plan done (the step whose window has opened, linked to the
// response), once. Seeding twice adds nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  Bundle,
  CarePlan,
  Communication,
  Flag,
  Observation,
  QuestionnaireResponse,
  Resource,
} from '@medplum/fhirtypes';
import { EPDS_QUESTIONNAIRE_URL } from '../../../src/fhir/screening/epds';
import { FileBinaryStorage } from '../../../src/server/binary/storage';
import { BotJobStore } from '../../../src/server/bots/subscription-jobs';
import { Repository, systemContext } from '../../../src/server/repo';
import { seedEpdsScreening } from '../../../src/server/seed';
import type { EpdsScreeningResult } from '../../../src/server/seed';
import { epdsAnswer, epdsLinkId } from '../../../src/server/seed/demo/epds-questionnaire';
import type { Tokens } from '../auth/support/auth-fixtures';
import { call, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import { databases } from '../support/test-databases';

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(databases())('EPDS scoring bot and alert on %s', (_engine, kind) => {
  let clinic: Clinic;
  let binaryDir: string;
  let seeded: EpdsScreeningResult;
  let jobs: BotJobStore;

  beforeAll(async () => {
    binaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-epds-'));
    clinic = await startClinic(
      kind,
      { BINARY_DIR: binaryDir },
      { botTriggerSettings: { retryDelayMs: 100, sweepIntervalMs: 500 } },
    );
    const result = await seedEpdsScreening(
      new Repository(clinic.server.db, systemContext()),
      new FileBinaryStorage(binaryDir),
    );
    if (!result) throw new Error('The demo clinic was not found');
    seeded = result;
    jobs = new BotJobStore(clinic.server.db);
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
    fs.rmSync(binaryDir, { recursive: true, force: true });
  });

  async function answer(tokens: Tokens, scores: readonly number[]): Promise<QuestionnaireResponse> {
    const subject = { reference: tokens.profile?.reference as string };
    const created = await call<QuestionnaireResponse>(
      clinic.server,
      'POST',
      'fhir/R4/QuestionnaireResponse',
      tokens,
      {
        body: {
          resourceType: 'QuestionnaireResponse',
          questionnaire: EPDS_QUESTIONNAIRE_URL,
          status: 'completed',
          subject,
          author: subject,
          source: subject,
          authored: new Date().toISOString(),
          item: scores.map((score, index) => ({
            linkId: epdsLinkId(index + 1),
            answer: [{ valueCoding: epdsAnswer(index + 1, score) }],
          })),
        },
      },
    );
    expect(created.status).toBe(201);
    return created.body;
  }

  async function search<T extends Resource>(tokens: Tokens, query: string): Promise<T[]> {
    const found = await call<Bundle<T>>(clinic.server, 'GET', `fhir/R4/${query}`, tokens);
    expect(found.status).toBe(200);
    return (found.body.entry ?? []).map((e) => e.resource as T);
  }

  /** The bot's job for the response, once finished. */
  async function botFinished(response: QuestionnaireResponse): Promise<void> {
    await waitFor(async () => {
      const list = await jobs.forSubscription(seeded.subscriptionId);
      const { rows } = await clinic.server.db.query<{ seq: string }>(
        `SELECT count(*)::text AS seq FROM resource WHERE resource_type = 'Observation' AND NOT deleted
           AND content->'derivedFrom'->0->>'reference' = $1`,
        [`QuestionnaireResponse/${response.id}`],
      );
      const settled =
        list.length > 0 && list.every((j) => ['succeeded', 'failed', 'cancelled'].includes(j.status));
      return settled && rows[0].seq !== '0' ? true : undefined;
    }, 'the scoring bot');
    const failed = (await jobs.forSubscription(seeded.subscriptionId)).filter(
      (j) => j.status !== 'succeeded',
    );
    expect(failed).toEqual([]);
  }

  /** Maria's first response (in the first test). */
  let firstResponse: QuestionnaireResponse | undefined;

  it('a total of 12 with item 10 at 0 is scored and raises nothing', async () => {
    const response = await answer(clinic.maria, [2, 2, 2, 2, 2, 2, 0, 0, 0, 0]);
    firstResponse = response;
    await botFinished(response);
    const [score] = await search<Observation>(
      clinic.maria,
      `Observation?derived-from=QuestionnaireResponse/${response.id}&code=http://loinc.org|99046-5`,
    );
    expect(score).toMatchObject({
      status: 'final',
      valueInteger: 12,
      subject: { reference: clinic.maria.profile?.reference },
    });
    expect(score.component?.[0].valueInteger).toBe(0);
    expect(score.interpretation?.[0].coding?.[0].code).toBe('N');
    expect(
      await search<Flag>(clinic.chen, `Flag?identifier=https://bloom.example/fhir/epds-alert|${response.id}`),
    ).toEqual([]);
    expect(
      await search<Communication>(
        clinic.chen,
        `Communication?identifier=https://bloom.example/fhir/epds-alert|${response.id}`,
      ),
    ).toEqual([]);
  }, 40_000);

  it('the first response marked the opened mood check of Maria’s care plan done, linked to it', async () => {
    const [plan] = await search<CarePlan>(clinic.maria, 'CarePlan?status=active&_sort=-_lastUpdated');
    const mood = (plan.activity ?? []).filter((a) =>
      a.detail?.instantiatesCanonical?.includes(EPDS_QUESTIONNAIRE_URL),
    );
    // Maria is 35 weeks: the 28-32 week check had opened; the one after the birth has not.
    expect(mood.map((a) => [a.detail?.status, a.outcomeReference?.map((r) => r.reference)])).toEqual([
      ['completed', [`QuestionnaireResponse/${firstResponse?.id}`]],
      ['not-started', undefined],
    ]);
  });

  it('a total of 14 raises a Flag on Maria and an urgent Communication in Dr. Chen’s inbox', async () => {
    const response = await answer(clinic.maria, [2, 2, 2, 2, 2, 2, 1, 1, 0, 0]);
    await botFinished(response);
    const [score] = await search<Observation>(
      clinic.chen,
      `Observation?derived-from=QuestionnaireResponse/${response.id}`,
    );
    expect(score.valueInteger).toBe(14);
    expect(score.interpretation?.[0].coding?.[0].code).toBe('A');
    const alertId = `https://bloom.example/fhir/epds-alert|${response.id}`;
    const flags = await search<Flag>(clinic.chen, `Flag?identifier=${alertId}`);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({
      status: 'active',
      subject: { reference: clinic.maria.profile?.reference },
    });
    const [alert] = await search<Communication>(clinic.chen, `Communication?identifier=${alertId}`);
    expect(alert).toMatchObject({
      priority: 'urgent',
      subject: { reference: clinic.maria.profile?.reference },
      recipient: [{ reference: clinic.chen.profile?.reference }],
    });
    expect(alert.payload?.[0].contentString).toContain('total is 14 (item 10: 0)');
    expect(alert.about?.map((a) => a.reference)).toEqual([
      `QuestionnaireResponse/${response.id}`,
      `Observation/${score.id}`,
      `Flag/${flags[0].id}`,
    ]);

    // Dr. Chen's inbox (the app's InboxThreads query) lists it among her threads.
    const inbox = await call<{
      data: { CommunicationList: { id: string; topic: { text: string } | null }[] };
    }>(clinic.server, 'POST', 'fhir/R4/$graphql', clinic.chen, {
      body: {
        query:
          '{ CommunicationList(_filter: "part-of pr false", _sort: "-sent", _count: 50) { id topic { text } } }',
      },
    });
    expect(inbox.status).toBe(200);
    expect(inbox.body.data.CommunicationList).toContainEqual({
      id: alert.id,
      topic: { text: 'Mood screening alert: EPDS 14' },
    });

    // Maria's messages screen (the app's CommunicationList) keeps her own thread, not the alert.
    const thread = await call<{ data: { CommunicationList: { id: string }[] } }>(
      clinic.server,
      'POST',
      'fhir/R4/$graphql',
      clinic.maria,
      {
        body: {
          query: `{ CommunicationList(subject: "${clinic.maria.profile?.reference}", _filter: "part-of pr false and category ne alert", _sort: "-_lastUpdated", _count: 1) { id topic { text } } }`,
        },
      },
    );
    expect(thread.status).toBe(200);
    expect(thread.body.data.CommunicationList).toEqual([
      expect.objectContaining({ topic: { text: 'Questions for Dr. Chen' } }),
    ]);

    // Maria's role reads no Flag (SPEC §6): not found, as Medplum answers; Aisha reads none of it.
    const mariaFlags = await call(clinic.server, 'GET', `fhir/R4/Flag/${flags[0].id}`, clinic.maria);
    expect(mariaFlags.status).toBe(404);
    expect(
      await search<Observation>(
        clinic.aisha,
        `Observation?derived-from=QuestionnaireResponse/${response.id}`,
      ),
    ).toEqual([]);
    expect(await search<Communication>(clinic.aisha, `Communication?identifier=${alertId}`)).toEqual([]);
  }, 40_000);

  it('item 10 at 1 raises the alert at a low total; at 0 the same answers do not', async () => {
    const calm = await answer(clinic.maria, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    const selfHarm = await answer(clinic.maria, [1, 1, 0, 0, 0, 0, 0, 0, 0, 1]);
    await botFinished(calm);
    await botFinished(selfHarm);
    expect(
      await search<Flag>(clinic.chen, `Flag?identifier=https://bloom.example/fhir/epds-alert|${calm.id}`),
    ).toEqual([]);
    const [alert] = await search<Communication>(
      clinic.chen,
      `Communication?identifier=https://bloom.example/fhir/epds-alert|${selfHarm.id}`,
    );
    expect(alert.payload?.[0].contentString).toContain(
      'item 10 (thoughts of harming herself) with a score of 1',
    );
    expect(
      await search<Flag>(clinic.chen, `Flag?identifier=https://bloom.example/fhir/epds-alert|${selfHarm.id}`),
    ).toHaveLength(1);
  }, 40_000);

  it('later responses leave the plan as it was: the step after the birth has not opened', async () => {
    const [plan] = await search<CarePlan>(clinic.maria, 'CarePlan?status=active&_sort=-_lastUpdated');
    const linked = (plan.activity ?? []).flatMap((a) => a.outcomeReference ?? []).map((r) => r.reference);
    expect(linked.filter((r) => r?.startsWith('QuestionnaireResponse/'))).toEqual([
      `QuestionnaireResponse/${firstResponse?.id}`,
    ]);
  });

  it('an answer the scale does not offer is refused by the server before any bot runs', async () => {
    const subject = { reference: clinic.maria.profile?.reference as string };
    const refused = await call(clinic.server, 'POST', 'fhir/R4/QuestionnaireResponse', clinic.maria, {
      body: {
        resourceType: 'QuestionnaireResponse',
        questionnaire: EPDS_QUESTIONNAIRE_URL,
        status: 'completed',
        subject,
        author: subject,
        item: [
          { linkId: epdsLinkId(1), answer: [{ valueCoding: { system: 'http://example.org', code: 'x' } }] },
        ],
      },
    });
    expect(refused.status).toBe(400);
  });

  it('seeding again adds nothing: one Questionnaire, one Bot, one Subscription', async () => {
    const again = await seedEpdsScreening(
      new Repository(clinic.server.db, systemContext()),
      new FileBinaryStorage(binaryDir),
    );
    expect(again).toEqual(seeded);
    expect(await search(clinic.admin, `Questionnaire?url=${EPDS_QUESTIONNAIRE_URL}`)).toHaveLength(1);
    expect(await search(clinic.admin, `Subscription?url=Bot/${seeded.botId}`)).toHaveLength(1);
  });
});
