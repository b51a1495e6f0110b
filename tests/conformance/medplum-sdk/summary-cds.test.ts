// Medplum's own SDK as the referee (Medplum conformance): MedplumClient 5.2.13, unchanged,
// reads an International Patient Summary (readPatientSummary: GET Patient/{id}/$summary) and calls
// CDS Hooks services (getCdsServices: GET /cds-services; callCdsService: POST /cds-services/{id})
// answered by Bots with a cdsService, as Medplum's server answers them; with the access rules of the
// rest of the API (a patient reaches no other patient through either) and precise OperationOutcomes
// for bad input.
import './support/node-websocket';
import type { MedplumClient } from '@medplum/core';
import type { CdsRequest } from '@medplum/core';
import type {
  AccessPolicy,
  AllergyIntolerance,
  Bot,
  Bundle,
  Composition,
  Condition,
  OperationOutcome,
  Project,
  ProjectMembership,
  Resource,
} from '@medplum/fhirtypes';
import { Repository, systemContext } from '../../../src/server/repo';
import { buildPatientAccessPolicy } from '../../../src/server/seed/demo-accounts';
import { addMembership, createUser, signIn } from '../../server/auth/support/auth-fixtures';
import type { Tokens } from '../../server/auth/support/auth-fixtures';
import { call, startClinic } from '../../server/operations/support/clinic';
import type { Clinic } from '../../server/operations/support/clinic';
import { databases } from '../../server/support/test-databases';
import { tokenClient } from './support/token-client';

const LOINC = 'http://loinc.org';
// The sections Medplum's $summary always writes, in its order.
const ALWAYS_SECTIONS = [
  '48765-2', // allergies
  '11369-6', // immunizations
  '10160-0', // medications
  '11450-4', // problem list
  '30954-2', // results
  '29762-2', // social history
  '8716-3', // vital signs
  '47519-4', // procedures
  '46240-8', // encounters
  '46264-8', // devices
  '51848-0', // assessments
  '18776-5', // plan of treatment
];

// A CDS service bot: reads the patient of the hook's context (as the caller) and answers one card.
const CDS_BOT = `
exports.handler = async function handler(medplum, event) {
  const patient = await medplum.readResource('Patient', event.input.context.patientId);
  const name = patient.name[0].given[0] + ' ' + patient.name[0].family;
  return {
    cards: [
      {
        uuid: 'card-' + event.input.hookInstance,
        summary: 'Prenatal check for ' + name,
        detail: 'Prefetched: ' + Object.keys(event.input.prefetch || {}).join(','),
        indicator: 'info',
        source: { label: 'Bloom CDS' },
      },
    ],
  };
};
`;
const FAILING_BOT = `exports.handler = async function handler() { throw new Error('no rules for this hook'); };`;

const client = (clinic: Clinic, tokens: Tokens): MedplumClient => tokenClient(clinic.server.baseUrl, tokens);

/** A Bot with `fields` created and deployed by the clinic's admin. */
async function createBot(clinic: Clinic, fields: Partial<Bot>, code: string): Promise<Bot> {
  const created = await call<Bot>(clinic.server, 'POST', 'fhir/R4/Bot', clinic.admin, {
    body: { resourceType: 'Bot', ...fields },
  });
  if (created.status !== 201) throw new Error(`POST Bot answered ${created.status}: ${created.text}`);
  const deployed = await call(clinic.server, 'POST', `fhir/R4/Bot/${created.body.id}/$deploy`, clinic.admin, {
    body: { code, filename: 'bot.js' },
    contentType: 'application/json',
  });
  if (deployed.status !== 200) throw new Error(`$deploy answered ${deployed.status}: ${deployed.text}`);
  return created.body;
}

const issueText = (outcome: OperationOutcome) => outcome.issue?.[0]?.details?.text;

describe.each(databases())("Medplum's MedplumClient: $summary and CDS Hooks on %s", (_engine, kind) => {
  let clinic: Clinic;
  let chen: MedplumClient;
  let maria: MedplumClient;
  let mariaId: string;
  let aishaId: string;
  let allergy: AllergyIntolerance;
  let condition: Condition;
  let cdsBot: Bot;
  let failingBot: Bot;
  let plainBot: Bot;

  beforeAll(async () => {
    clinic = await startClinic(kind);
    chen = client(clinic, clinic.chen);
    maria = client(clinic, clinic.maria);
    mariaId = (clinic.maria.profile?.reference as string).split('/')[1];
    aishaId = (clinic.aisha.profile?.reference as string).split('/')[1];
    allergy = await chen.createResource<AllergyIntolerance>({
      resourceType: 'AllergyIntolerance',
      patient: { reference: `Patient/${mariaId}` },
      code: { text: 'Penicillin' },
      reaction: [{ manifestation: [{ text: 'Hives' }], severity: 'moderate' }],
    });
    condition = await chen.createResource<Condition>({
      resourceType: 'Condition',
      subject: { reference: `Patient/${mariaId}` },
      code: { text: 'Gestational diabetes' },
      onsetDateTime: '2026-09-01',
    });
    cdsBot = await createBot(
      clinic,
      {
        name: 'Prenatal CDS',
        cdsService: {
          hook: 'patient-view',
          title: 'Prenatal checks',
          description: 'Reminds the clinician of due prenatal checks',
          usageRequirements: 'Clinicians only',
          prefetch: [{ key: 'patient', query: 'Patient/{{context.patientId}}' }],
        },
      },
      CDS_BOT,
    );
    failingBot = await createBot(
      clinic,
      {
        name: 'Broken CDS',
        cdsService: { hook: 'order-select', title: 'Broken', description: 'Always fails' },
      },
      FAILING_BOT,
    );
    plainBot = await createBot(clinic, { name: 'Not a CDS service' }, CDS_BOT);
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  const referenceOf = (resource: Resource) => `${resource.resourceType}/${resource.id}`;

  describe('readPatientSummary (Patient/{id}/$summary)', () => {
    it('answers a document Bundle whose first entry is an IPS Composition with the sections Medplum fills', async () => {
      const bundle: Bundle = await chen.readPatientSummary(mariaId);
      expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'document' });
      expect(Number.isNaN(Date.parse(bundle.timestamp as string))).toBe(false);
      const resources = (bundle.entry ?? []).map((entry) => entry.resource as Resource);
      const composition = resources[0] as Composition;
      expect(composition).toMatchObject({
        resourceType: 'Composition',
        status: 'final',
        type: { coding: [{ system: LOINC, code: '60591-5' }] },
        subject: { reference: `Patient/${mariaId}` },
        author: [{ reference: clinic.chen.profile?.reference }],
        title: 'Medical Summary',
      });
      expect(resources[1]).toMatchObject({ resourceType: 'Patient', id: mariaId });
      const codes = (composition.section ?? []).map((section) => section.code?.coding?.[0]?.code);
      expect(codes.slice(0, ALWAYS_SECTIONS.length)).toEqual(ALWAYS_SECTIONS);
      const section = (code: string) =>
        (composition.section ?? []).find((s) => s.code?.coding?.[0]?.code === code);
      expect(section('48765-2')?.entry).toEqual([
        expect.objectContaining({ reference: referenceOf(allergy) }),
      ]);
      expect(section('48765-2')?.text?.div).toContain('Penicillin');
      expect(section('11450-4')?.entry).toEqual([
        expect.objectContaining({ reference: referenceOf(condition) }),
      ]);
      // The demo record: vital signs, lab reports, an immunization and a prescription.
      for (const code of ['8716-3', '30954-2', '11369-6', '10160-0']) {
        expect(section(code)?.entry?.length).toBeGreaterThan(0);
        expect(section(code)?.text?.div).toMatch(/^<div xmlns="http:\/\/www\.w3\.org\/1999\/xhtml"><table/);
      }
      const vitals = (section('8716-3')?.entry ?? []).map((ref) =>
        resources.find((r) => referenceOf(r) === ref.reference),
      );
      for (const vital of vitals) {
        expect(vital).toMatchObject({
          resourceType: 'Observation',
          category: [{ coding: [expect.objectContaining({ code: 'vital-signs' })] }],
        });
      }
      // Every section entry is a resource of the document, and every resource is there once.
      const inBundle = new Set(resources.map(referenceOf));
      expect(inBundle.size).toBe(resources.length);
      for (const s of composition.section ?? []) {
        for (const ref of s.entry ?? []) {
          expect(inBundle).toContain(ref.reference);
        }
      }
      // Nothing of another patient.
      expect(JSON.stringify(bundle)).not.toContain(aishaId);
    });

    it('a patient gets her own summary, as her own author, with only what she may read', async () => {
      const bundle = await maria.readPatientSummary(mariaId);
      const resources = (bundle.entry ?? []).map((entry) => entry.resource as Resource);
      const composition = resources[0] as Composition;
      expect(composition.author).toEqual([expect.objectContaining({ reference: `Patient/${mariaId}` })]);
      expect(resources.filter((r) => r.resourceType === 'Patient')).toHaveLength(1);
      // Only types the demo patient policy lets her read (its Allergies and Conditions included).
      const readable = new Set(buildPatientAccessPolicy().resource?.map((entry) => entry.resourceType));
      readable.add('Composition');
      for (const resource of resources) {
        expect(readable).toContain(resource.resourceType);
      }
      expect(composition.section?.[0]).toMatchObject({ title: 'Allergies' });
      expect(resources.some((r) => r.resourceType === 'Observation')).toBe(true);
    });

    it("another patient's summary, or an unknown patient's, is a 404 as $everything answers", async () => {
      await expect(maria.readPatientSummary(aishaId)).rejects.toThrow('Not found');
      await expect(chen.readPatientSummary('no-such-patient')).rejects.toThrow('Not found');
      const other = client(clinic, clinic.otherAdmin);
      await expect(other.readPatientSummary(mariaId)).rejects.toThrow('Not found');
      const anonymous = await call(clinic.server, 'GET', `fhir/R4/Patient/${mariaId}/$summary`, undefined);
      expect(anonymous.status).toBe(401);
    });

    it('POST with a Parameters body sets the date; bad parameters are precise 400s', async () => {
      const authoredOn = '2026-11-01T09:00:00.000Z';
      const posted = await call<Bundle>(
        clinic.server,
        'POST',
        `fhir/R4/Patient/${mariaId}/$summary`,
        clinic.chen,
        {
          body: { resourceType: 'Parameters', parameter: [{ name: 'authoredOn', valueInstant: authoredOn }] },
        },
      );
      expect(posted.status).toBe(200);
      expect(posted.body.entry?.[0]?.resource).toMatchObject({
        resourceType: 'Composition',
        date: authoredOn,
      });
      const chenRef = clinic.chen.profile?.reference as string;
      const byAuthor = await call<Bundle>(
        clinic.server,
        'GET',
        `fhir/R4/Patient/${mariaId}/$summary?author=${chenRef}`,
        clinic.maria,
      );
      expect(byAuthor.status).toBe(200);
      expect(byAuthor.body.entry?.[0]?.resource).toMatchObject({ author: [{ reference: chenRef }] });
      expect(byAuthor.body.entry?.[2]?.resource).toMatchObject({ resourceType: 'Practitioner' });
      const cases: [string, string, unknown, RegExp, string | undefined][] = [
        ['GET', '?_since=yesterday', undefined, /_since must be an instant/, '_since'],
        ['GET', '?count=3', undefined, /Unsupported parameter 'count' for \$summary/, 'count'],
        ['GET', '?author=Observation/1', undefined, /author must be a reference to one of/, 'author'],
        ['POST', '', '{"resourceType":', /^Malformed JSON/, undefined],
        ['POST', '', { resourceType: 'Patient' }, /must be a FHIR Parameters resource/, undefined],
        [
          'POST',
          '',
          { resourceType: 'Parameters', parameter: [{ name: 'x', valueString: '1' }] },
          /'x'/,
          'Parameters.parameter[0]',
        ],
      ];
      for (const [method, query, body, text, expression] of cases) {
        const response = await call<OperationOutcome>(
          clinic.server,
          method,
          `fhir/R4/Patient/${mariaId}/$summary${query}`,
          clinic.chen,
          body === undefined ? {} : { body },
        );
        expect(response.status).toBe(400);
        expect(response.body.resourceType).toBe('OperationOutcome');
        expect(issueText(response.body)).toMatch(text);
        if (expression) expect(response.body.issue?.[0]?.expression).toEqual([expression]);
      }
    });
  });

  describe('CDS Hooks (/cds-services)', () => {
    const request = (hook = 'patient-view'): CdsRequest => ({
      hook,
      hookInstance: 'd1577c69-dfbe-44ad-ba6d-3e05e953b2ea',
      context: { userId: clinic.chen.profile?.reference, patientId: mariaId },
      prefetch: { patient: { resourceType: 'Patient', id: mariaId } },
    });

    it('getCdsServices lists the bots of the caller’s project that declare a cdsService', async () => {
      const { services } = await chen.getCdsServices();
      expect(services).toHaveLength(2);
      expect(services).toEqual(
        expect.arrayContaining([
          {
            id: cdsBot.id,
            hook: 'patient-view',
            title: 'Prenatal checks',
            description: 'Reminds the clinician of due prenatal checks',
            usageRequirements: 'Clinicians only',
            prefetch: { patient: 'Patient/{{context.patientId}}' },
          },
          { id: failingBot.id, hook: 'order-select', title: 'Broken', description: 'Always fails' },
        ]),
      );
      expect(services.map((s) => s.id)).not.toContain(plainBot.id);
      // A patient may not read bots under the demo policy; another project has none of these.
      expect((await maria.getCdsServices()).services).toEqual([]);
      expect((await client(clinic, clinic.otherAdmin).getCdsServices()).services).toEqual([]);
      expect((await call(clinic.server, 'GET', 'cds-services', undefined)).status).toBe(401);
    });

    it('callCdsService runs the bot with the CDS request as input, as the caller, and answers its cards', async () => {
      const response = await chen.callCdsService(cdsBot.id as string, request());
      expect(response).toEqual({
        cards: [
          {
            uuid: 'card-d1577c69-dfbe-44ad-ba6d-3e05e953b2ea',
            summary: 'Prenatal check for Maria Garcia',
            detail: 'Prefetched: patient',
            indicator: 'info',
            source: { label: 'Bloom CDS' },
          },
        ],
      });
    });

    it('a patient reaches no service (404), so no other patient through one; unknown ids are 404s', async () => {
      await expect(maria.callCdsService(cdsBot.id as string, request())).rejects.toThrow('Not found');
      await expect(chen.callCdsService('no-such-bot', request())).rejects.toThrow('Not found');
      await expect(chen.callCdsService(plainBot.id as string, request())).rejects.toThrow(
        `Bot/${plainBot.id} is not a CDS service`,
      );
      const other = client(clinic, clinic.otherAdmin);
      await expect(other.callCdsService(cdsBot.id as string, request())).rejects.toThrow('Not found');
      const anonymous = await call(clinic.server, 'POST', `cds-services/${cdsBot.id}`, undefined, {
        body: request(),
        contentType: 'application/json',
      });
      expect(anonymous.status).toBe(401);
    });

    it('a malformed CDS request is a precise 400 (415 for a body that is not JSON); a failing bot a 400', async () => {
      const cases: [unknown, string, number, RegExp, string | undefined][] = [
        ['{"hook":', 'application/json', 400, /not valid JSON/, undefined],
        [[1, 2], 'application/json', 400, /must be a JSON object/, undefined],
        [{ ...request(), hook: undefined }, 'application/json', 400, /hook is required/, 'hook'],
        [
          request('order-sign'),
          'application/json',
          400,
          /answers the hook 'patient-view', not 'order-sign'/,
          'hook',
        ],
        [
          { ...request(), hookInstance: 7 },
          'application/json',
          400,
          /hookInstance is required/,
          'hookInstance',
        ],
        [{ ...request(), context: 'x' }, 'application/json', 400, /context is required/, 'context'],
        [{ ...request(), prefetch: [] }, 'application/json', 400, /prefetch must be an object/, 'prefetch'],
        [
          'hook=patient-view',
          'text/plain',
          415,
          /is JSON \(application\/json\), not 'text\/plain'/,
          undefined,
        ],
      ];
      for (const [body, contentType, status, text, expression] of cases) {
        const response = await call<OperationOutcome>(
          clinic.server,
          'POST',
          `cds-services/${cdsBot.id}`,
          clinic.chen,
          {
            body,
            contentType,
          },
        );
        expect(response.status).toBe(status);
        expect(response.body.resourceType).toBe('OperationOutcome');
        expect(issueText(response.body)).toMatch(text);
        if (expression) expect(response.body.issue?.[0]?.expression).toEqual([expression]);
      }
      await expect(chen.callCdsService(failingBot.id as string, request('order-select'))).rejects.toThrow(
        /no rules for this hook/,
      );
    });

    it('the bot acts as its caller: a member whose policy hides Patients gets the bot failure, not Maria', async () => {
      const repo = new Repository(clinic.server.db, systemContext(clinic.projectId));
      const policy = await repo.createResource<AccessPolicy>({
        resourceType: 'AccessPolicy',
        name: 'Bots and observations only',
        resource: [{ resourceType: 'Bot', readonly: true }, { resourceType: 'Observation' }],
      });
      const project = await repo.readResource<Project>('Project', clinic.projectId);
      const user = await createUser(clinic.server.db);
      const membership = await addMembership(clinic.server.db, user, project, 'Practitioner');
      await repo.updateResource<ProjectMembership>({
        ...membership,
        accessPolicy: { reference: `AccessPolicy/${policy.id}` },
      });
      const limited = client(clinic, await signIn(clinic.server.baseUrl, user.email as string));
      expect((await limited.getCdsServices()).services.map((s) => s.id)).toContain(cdsBot.id);
      await expect(limited.callCdsService(cdsBot.id as string, request())).rejects.toThrow(/Not found/);
      expect(JSON.stringify(await chen.callCdsService(cdsBot.id as string, request()))).toContain('Maria');
    });
  });
});
