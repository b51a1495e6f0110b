// The care-plan bot over real HTTP on both engines (SPEC §6 access, §7 Bot and Subscription calls):
// a pregnancy is registered when an Observation dates it (the clinic's estimated due date, LOINC
// 11778-8, or the last period a patient enters in the app, LOINC 8665-2); the seeded Subscription
// then runs the seeded bot, which applies the clinic's PlanDefinition with $apply through its client.
// Exactly one CarePlan per pregnancy (a correction, or two registrations at once, make no second);
// an edited template is what the next registration gets; a patient reaches only her own plan.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  Bundle,
  CarePlan,
  Observation,
  Patient,
  PlanDefinition,
  Project,
  Resource,
} from '@medplum/fhirtypes';
import { FileBinaryStorage } from '../../../src/server/binary/storage';
import { PREGNANCY_PLAN_URL } from '../../../src/server/bots/care-plan/registration';
import { BotJobStore } from '../../../src/server/bots/subscription-jobs';
import { Repository, systemContext } from '../../../src/server/repo';
import { seedCarePlanBot } from '../../../src/server/seed';
import type { CarePlanBotResult } from '../../../src/server/seed';
import { addMembership, createUser, signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { call, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import { databases } from '../support/test-databases';

const DAY_MS = 24 * 60 * 60 * 1000;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function dating(patient: string, code: '11778-8' | '8665-2', value: string): Observation {
  return {
    resourceType: 'Observation',
    status: 'final',
    code: { coding: [{ system: 'http://loinc.org', code }] },
    subject: { reference: patient },
    effectiveDateTime: new Date().toISOString(),
    valueDateTime: value,
  };
}

describe.each(databases())('care-plan bot on %s', (_engine, kind) => {
  let clinic: Clinic;
  let binaryDir: string;
  let seeded: CarePlanBotResult;
  let jobs: BotJobStore;
  let lena: Tokens;
  let lenaRef: string;

  beforeAll(async () => {
    binaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-care-plan-'));
    clinic = await startClinic(
      kind,
      { BINARY_DIR: binaryDir },
      { botTriggerSettings: { retryDelayMs: 100, sweepIntervalMs: 500 } },
    );
    const systemRepo = new Repository(clinic.server.db, systemContext());
    const result = await seedCarePlanBot(systemRepo, new FileBinaryStorage(binaryDir));
    if (!result) throw new Error('The demo clinic was not found');
    seeded = result;
    jobs = new BotJobStore(clinic.server.db);
    // Lena signs up with the clinic and has not told it about a pregnancy yet.
    const project = await systemRepo.readResource<Project>('Project', clinic.projectId);
    const user = await createUser(clinic.server.db);
    await addMembership(clinic.server.db, user, project, 'Patient');
    lena = await signIn(clinic.server.baseUrl, user.email as string);
    lenaRef = lena.profile?.reference as string;
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
    fs.rmSync(binaryDir, { recursive: true, force: true });
  });

  async function search<T extends Resource>(tokens: Tokens, query: string): Promise<T[]> {
    const found = await call<Bundle<T>>(clinic.server, 'GET', `fhir/R4/${query}`, tokens);
    expect(found.status).toBe(200);
    return (found.body.entry ?? []).map((e) => e.resource as T);
  }

  async function post<T extends Resource>(tokens: Tokens, resource: T): Promise<T> {
    const created = await call<T>(clinic.server, 'POST', `fhir/R4/${resource.resourceType}`, tokens, {
      body: resource,
    });
    expect(created.status).toBe(201);
    return created.body;
  }

  let settledJobs = 0;
  /** Waits until `more` further runs of the bot have finished, each successfully. */
  async function botRuns(more: number): Promise<void> {
    const until = Date.now() + 20_000;
    for (;;) {
      const list = await jobs.forSubscription(seeded.subscriptionId);
      const done = list.every((j) => ['succeeded', 'failed', 'cancelled'].includes(j.status));
      if (done && list.length >= settledJobs + more) {
        expect(list.filter((j) => j.status !== 'succeeded')).toEqual([]);
        settledJobs = list.length;
        return;
      }
      if (Date.now() > until) throw new Error(`Timed out waiting for ${more} care-plan bot runs`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const plansOf = (tokens: Tokens, patient: string) =>
    search<CarePlan>(tokens, `CarePlan?subject=${patient}&instantiates-canonical=${PREGNANCY_PLAN_URL}`);

  async function newPatient(family: string): Promise<string> {
    const patient = await post<Patient>(clinic.chen, {
      resourceType: 'Patient',
      name: [{ given: ['Test'], family }],
    });
    return `Patient/${patient.id}`;
  }

  test('the seed keeps the demo patients’ plans from its first run and adds nothing when run again', async () => {
    expect(await plansOf(clinic.maria, clinic.maria.profile?.reference as string)).toHaveLength(1);
    const again = await seedCarePlanBot(
      new Repository(clinic.server.db, systemContext()),
      new FileBinaryStorage(binaryDir),
    );
    expect(again).toEqual(seeded);
    const subscription = await search(clinic.admin, `Subscription?url=Bot/${seeded.botId}`);
    expect(subscription).toHaveLength(1);
  });

  test('a patient entering her last period in the app gets exactly one CarePlan from the template', async () => {
    const lastPeriod = isoDay(Date.now() - 9 * 7 * DAY_MS);
    await post(lena, dating(lenaRef, '8665-2', lastPeriod));
    await botRuns(1);
    const plans = await plansOf(lena, lenaRef);
    expect(plans).toHaveLength(1);
    const template = (
      await search<PlanDefinition>(clinic.chen, `PlanDefinition?url=${PREGNANCY_PLAN_URL}`)
    )[0];
    expect(plans[0]).toMatchObject({
      status: 'active',
      subject: { reference: lenaRef },
      instantiatesCanonical: [PREGNANCY_PLAN_URL],
      period: { start: lastPeriod },
    });
    expect(plans[0].activity?.map((a) => a.detail?.code?.text)).toEqual(template.action?.map((a) => a.title));
    // The booking visit (weeks 6 to 10) is placed from her last period.
    expect(plans[0].activity?.[0].detail?.scheduledPeriod?.start).toBe(
      isoDay(Date.parse(lastPeriod) + 42 * DAY_MS),
    );

    // The clinic's due date for the same pregnancy registers nothing new.
    await post(clinic.chen, dating(lenaRef, '11778-8', isoDay(Date.parse(lastPeriod) + 283 * DAY_MS)));
    await botRuns(1);
    expect(await plansOf(lena, lenaRef)).toHaveLength(1);
  });

  test('two registrations of one pregnancy at the same moment leave exactly one CarePlan', async () => {
    const patient = await newPatient('Concurrent');
    const lastPeriod = isoDay(Date.now() - 12 * 7 * DAY_MS);
    await Promise.all([
      post(clinic.chen, dating(patient, '8665-2', lastPeriod)),
      post(clinic.chen, dating(patient, '11778-8', isoDay(Date.parse(lastPeriod) + 280 * DAY_MS))),
    ]);
    await botRuns(2);
    expect(await plansOf(clinic.chen, patient)).toHaveLength(1);
  });

  test('an edited template is what the next registration gets', async () => {
    const [template] = await search<PlanDefinition>(clinic.admin, `PlanDefinition?url=${PREGNANCY_PLAN_URL}`);
    const edited: PlanDefinition = {
      ...template,
      action: [
        ...(template.action ?? []).filter((a) => a.title !== 'Glucose test'),
        { title: 'Iron level check', description: 'A blood test for anaemia.' },
      ],
    };
    const updated = await call(clinic.server, 'PUT', `fhir/R4/PlanDefinition/${template.id}`, clinic.admin, {
      body: edited,
    });
    expect(updated.status).toBe(200);
    try {
      const patient = await newPatient('Edited');
      await post(clinic.chen, dating(patient, '11778-8', isoDay(Date.now() + 150 * DAY_MS)));
      await botRuns(1);
      const plans = await plansOf(clinic.chen, patient);
      expect(plans).toHaveLength(1);
      const titles = plans[0].activity?.map((a) => a.detail?.code?.text);
      expect(titles).toContain('Iron level check');
      expect(titles).not.toContain('Glucose test');
    } finally {
      const [current] = await search<PlanDefinition>(
        clinic.admin,
        `PlanDefinition?url=${PREGNANCY_PLAN_URL}`,
      );
      const restored = await call(
        clinic.server,
        'PUT',
        `fhir/R4/PlanDefinition/${template.id}`,
        clinic.admin,
        {
          body: { ...template, meta: current.meta },
        },
      );
      expect(restored.status).toBe(200);
    }
  });

  test('a patient reaches only her own plan and cannot register another patient’s pregnancy', async () => {
    const [lenaPlan] = await plansOf(lena, lenaRef);
    const read = await call(clinic.server, 'GET', `fhir/R4/CarePlan/${lenaPlan.id}`, clinic.maria);
    expect(read.status).toBe(404);
    expect(await plansOf(clinic.maria, lenaRef)).toEqual([]);
    expect(await search(clinic.maria, `CarePlan?_id=${lenaPlan.id}`)).toEqual([]);

    const target = await newPatient('Target');
    const refused = await call(clinic.server, 'POST', 'fhir/R4/Observation', clinic.maria, {
      body: dating(target, '8665-2', isoDay(Date.now() - 60 * DAY_MS)),
    });
    expect(refused.status).toBe(403);
    expect(await plansOf(clinic.chen, target)).toEqual([]);
  });

  test('an observation that dates nothing runs the bot to no effect', async () => {
    const patient = await newPatient('Cancelled');
    await post(clinic.chen, {
      ...dating(patient, '11778-8', isoDay(Date.now() + 100 * DAY_MS)),
      status: 'preliminary',
    });
    await botRuns(1);
    expect(await plansOf(clinic.chen, patient)).toEqual([]);
  });
});
