// The EPDS bot's care-plan step when responses are scored at once (SPEC §7 Bot calls), on both
// engines: the built bot in the real sandbox, its FHIR calls through the bot host into the
// Repository. Both runs read the same version of the plan before either writes; the bot writes the
// plan only over the version it read (If-Match), so the run that loses re-reads and completes the
// other open mood check: each response linked once, nothing lost. The bot host passes If-Match on,
// and a failed call's OperationOutcome reaches the bot.
import type {
  CarePlan,
  Observation,
  OperationOutcome,
  Patient,
  PlanDefinition,
  QuestionnaireResponse,
} from '@medplum/fhirtypes';
import { EPDS_QUESTIONNAIRE_URL } from '../../../src/fhir/screening/epds';
import { createBotHost } from '../../../src/server/bots/bot-host';
import { readEpdsBotCode } from '../../../src/server/bots/epds/epds-bot-bundle';
import { markPlanStepDone, PLAN_UPDATE_ATTEMPTS } from '../../../src/server/bots/epds/plan-step';
import type { PlanStepClient } from '../../../src/server/bots/epds/plan-step';
import { runInSandbox } from '../../../src/server/bots/sandbox';
import type { BotHostCall } from '../../../src/server/bots/sandbox';
import type { Database } from '../../../src/server/db';
import { applyPlanDefinition } from '../../../src/server/operations/plan-definition-apply';
import { Repository, systemContext } from '../../../src/server/repo';
import {
  buildEpdsQuestionnaire,
  epdsAnswer,
  epdsLinkId,
} from '../../../src/server/seed/demo/epds-questionnaire';
import { buildPregnancyPlanDefinition } from '../../../src/server/seed/demo/pregnancy-plan';
import { databases } from '../support/test-databases';

const DAY_MS = 24 * 60 * 60 * 1000;
const FHIR_BASE = 'http://localhost/fhir/R4/';

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The host, held after each run's first CarePlan search until `parties` runs have read the plan. */
function afterAllRead(host: BotHostCall, parties: number): BotHostCall {
  const waiting: (() => void)[] = [];
  return async (method, args) => {
    const result = await host(method, args);
    if (method === 'search' && args[0] === 'CarePlan' && waiting.length < parties) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length === parties) waiting.forEach((release) => release());
      });
    }
    return result;
  };
}

function moodSteps(plan: CarePlan): [string | undefined, string[]][] {
  return (plan.activity ?? [])
    .filter((a) => a.detail?.instantiatesCanonical?.includes(EPDS_QUESTIONNAIRE_URL))
    .map((a) => [a.detail?.status, (a.outcomeReference ?? []).map((r) => r.reference as string)]);
}

describe.each(databases())('EPDS plan step under concurrent scoring on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;
  let template: PlanDefinition;
  let patientRef: string;

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext());
    await repo.createResource(buildEpdsQuestionnaire(new Date(Date.now() - 365 * DAY_MS).toISOString()));
    template = await repo.createResource(buildPregnancyPlanDefinition());
    const patient = await repo.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ given: ['Beth'], family: 'Both' }],
    });
    patientRef = `Patient/${patient.id}`;
    // 46 weeks since her last period: both mood checks (weeks 28-32 and 44-48) have opened.
    const lastPeriod = Date.parse(`${isoDay(Date.now())}T00:00:00Z`) - 46 * 7 * DAY_MS;
    await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '11778-8' }] },
      subject: { reference: patientRef },
      valueDateTime: isoDay(lastPeriod + 280 * DAY_MS),
    });
  });

  afterAll(async () => {
    await db.close();
  });

  const respond = (): Promise<QuestionnaireResponse> =>
    repo.createResource<QuestionnaireResponse>({
      resourceType: 'QuestionnaireResponse',
      questionnaire: EPDS_QUESTIONNAIRE_URL,
      status: 'completed',
      subject: { reference: patientRef },
      authored: new Date().toISOString(),
      item: Array.from({ length: 10 }, (_, index) => ({
        linkId: epdsLinkId(index + 1),
        answer: [{ valueCoding: epdsAnswer(index + 1, 0) }],
      })),
    });

  test('two responses scored at once complete both open mood checks, each linked once', async () => {
    const plan = await applyPlanDefinition(repo, template.id as string, patientRef);
    expect(moodSteps(plan)).toEqual([
      ['not-started', []],
      ['not-started', []],
    ]);
    const [first, second] = [await respond(), await respond()];
    const host = afterAllRead(createBotHost(repo, FHIR_BASE), 2);
    const code = readEpdsBotCode();
    const results = await Promise.all(
      [first, second].map((input) =>
        runInSandbox({ code, event: { input }, host, timeoutMs: 30_000, memoryBytes: 64 * 1024 * 1024 }),
      ),
    );
    const outputs = results.map((result) => (result.ok ? String(result.output) : result.error));
    expect(outputs).toEqual([
      expect.stringMatching(new RegExp(`CarePlan/${plan.id} activity \\d+ done`)),
      expect.stringMatching(new RegExp(`CarePlan/${plan.id} activity \\d+ done`)),
    ]);
    const stored = await repo.readResource<CarePlan>('CarePlan', plan.id as string);
    const steps = moodSteps(stored);
    expect(steps.map(([status]) => status)).toEqual(['completed', 'completed']);
    expect(steps.flatMap(([, links]) => links).sort()).toEqual(
      [`QuestionnaireResponse/${first.id}`, `QuestionnaireResponse/${second.id}`].sort(),
    );
    // One write per run, each over the version it had read.
    const history = await repo.readHistory('CarePlan', plan.id as string, { count: 10, offset: 0 });
    expect(history.items).toHaveLength(3);
  }, 60_000);

  test('the bot host passes If-Match on: a stale version is a 412 whose outcome the caller gets', async () => {
    const host = createBotHost(repo, FHIR_BASE);
    const plan = await applyPlanDefinition(repo, template.id as string, patientRef);
    const current = { ...plan, description: 'Edited' };
    await expect(host('updateResource', [current, { ifMatch: 'W/"not-a-version"' }])).rejects.toMatchObject({
      outcome: { id: 'precondition-failed' },
    });
    await expect(host('updateResource', [current, { ifMatch: 3 }])).rejects.toThrow(/If-Match must be/);
    const updated = (await host('updateResource', [
      current,
      { ifMatch: `W/"${plan.meta?.versionId}"` },
    ])) as CarePlan;
    expect(updated.description).toBe('Edited');
  });
});

describe('markPlanStepDone against a plan that keeps changing', () => {
  const outcome: OperationOutcome = {
    resourceType: 'OperationOutcome',
    id: 'precondition-failed',
    issue: [{ severity: 'error', code: 'processing', details: { text: 'Version conflict' } }],
  };
  const plan: CarePlan = {
    resourceType: 'CarePlan',
    id: 'p1',
    meta: { versionId: 'v1' },
    status: 'active',
    intent: 'plan',
    subject: { reference: 'Patient/x' },
    activity: [
      {
        detail: {
          status: 'not-started',
          instantiatesCanonical: [EPDS_QUESTIONNAIRE_URL],
          scheduledPeriod: { start: '2020-01-01', end: '2020-02-01' },
        },
      },
    ],
  };
  const response: QuestionnaireResponse = {
    resourceType: 'QuestionnaireResponse',
    id: 'r1',
    status: 'completed',
    subject: { reference: 'Patient/x' },
    authored: '2020-01-10T00:00:00Z',
  };

  test('re-reads after each 412 and gives up after a bounded number of attempts', async () => {
    const ifMatches: (string | undefined)[] = [];
    let reads = 0;
    const client: PlanStepClient = {
      searchResources: async <T>() => {
        reads++;
        return [plan] as T[];
      },
      updateResource: async (_resource, options) => {
        ifMatches.push(options?.headers['If-Match']);
        throw Object.assign(new Error('Version conflict'), { outcome });
      },
    };
    await expect(markPlanStepDone(client, response, EPDS_QUESTIONNAIRE_URL)).rejects.toThrow(
      'Version conflict',
    );
    expect(reads).toBe(PLAN_UPDATE_ATTEMPTS);
    expect(ifMatches).toEqual(Array(PLAN_UPDATE_ATTEMPTS).fill('W/"v1"'));
  });

  test('another failure is not retried', async () => {
    let writes = 0;
    const client: PlanStepClient = {
      searchResources: async <T>() => [plan] as T[],
      updateResource: async () => {
        writes++;
        throw new Error('Forbidden');
      },
    };
    await expect(markPlanStepDone(client, response, EPDS_QUESTIONNAIRE_URL)).rejects.toThrow('Forbidden');
    expect(writes).toBe(1);
  });
});
