// Medplum's own SDK as the referee (SPEC §7): MedplumClient from @medplum/core 5.2.13,
// unchanged, against Bloom's real server over HTTP, signed in as the demo clinic's users: one test
// per server-facing data method (reads, history, searches, writes, batch and transaction, $validate,
// GraphQL, $expand), each asserting what Medplum's server answers as the SDK sees it; and a patient
// (Maria) refused another patient's (Aisha's) record through readResource, search, graphql and
// readPatientEverything. Binaries and operations are in data-operations.test.ts. PGlite, and
// PostgreSQL with TEST_DATABASE_URL.
import './support/node-websocket';
import crypto from 'node:crypto';
import type { MedplumClient } from '@medplum/core';
import type { Bundle, Observation, Patient, Practitioner, ValueSet } from '@medplum/fhirtypes';
import { startClinic } from '../../server/operations/support/clinic';
import type { Clinic } from '../../server/operations/support/clinic';
import { databases } from '../../server/support/test-databases';
import { medplumClient, outcomeOf, rejectionOf } from './support/medplum-client';

/** The id in a token's profile reference ('Patient/<id>'). */
function profileId(reference: string | undefined): string {
  return (reference ?? '').split('/')[1];
}

describe.each(databases())("Medplum's MedplumClient data methods against Bloom on %s", (_engine, kind) => {
  let clinic: Clinic;
  let chen: MedplumClient;
  let maria: MedplumClient;
  let mariaId: string;
  let aishaId: string;

  beforeAll(async () => {
    clinic = await startClinic(kind);
    chen = await medplumClient(clinic.server.baseUrl);
    chen.setAccessToken(clinic.chen.access_token);
    maria = await medplumClient(clinic.server.baseUrl);
    maria.setAccessToken(clinic.maria.access_token);
    mariaId = profileId(clinic.maria.profile?.reference);
    aishaId = profileId(clinic.aisha.profile?.reference);
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  /** A fresh Observation about Maria, made by Dr Chen. */
  function observation(code = 'body-weight'): Promise<Observation & { id: string }> {
    return chen.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { text: code },
      subject: { reference: `Patient/${mariaId}` },
      valueQuantity: { value: 70, unit: 'kg' },
    });
  }

  describe('reads', () => {
    test('readResource answers the resource with its id and meta', async () => {
      const patient = await chen.readResource('Patient', mariaId);
      expect(patient).toMatchObject({ resourceType: 'Patient', id: mariaId });
      expect(patient.meta?.versionId).toEqual(expect.any(String));
      expect(patient.meta?.lastUpdated).toEqual(expect.any(String));
      const missing = await rejectionOf(chen.readResource('Patient', crypto.randomUUID()));
      expect(outcomeOf(missing)[0]?.code).toBe('not-found');
    });

    test('readReference follows a reference', async () => {
      const patient = await chen.readReference<Patient>({ reference: `Patient/${mariaId}` });
      expect(patient).toMatchObject({ resourceType: 'Patient', id: mariaId });
      const me = await chen.readReference<Practitioner>(clinic.chen.profile as { reference: string });
      expect(me.resourceType).toBe('Practitioner');
    });

    test('readHistory answers a history Bundle, newest first; readVersion reads one version', async () => {
      const created = await observation('history');
      const updated = await chen.updateResource({ ...created, status: 'amended' });
      const history = await chen.readHistory('Observation', created.id);
      expect(history).toMatchObject({ resourceType: 'Bundle', type: 'history' });
      expect(history.entry?.map((e) => e.resource?.meta?.versionId)).toEqual([
        updated.meta?.versionId,
        created.meta?.versionId,
      ]);
      expect(history.entry?.[0].resource).toMatchObject({ status: 'amended' });

      const first = await chen.readVersion('Observation', created.id, created.meta?.versionId as string);
      expect(first).toMatchObject({
        id: created.id,
        status: 'final',
        meta: { versionId: created.meta?.versionId },
      });
    });

    test('readPatientEverything answers a searchset Bundle with the patient and her compartment', async () => {
      const mine = await observation('everything');
      const bundle = await chen.readPatientEverything(mariaId);
      expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
      const refs = (bundle.entry ?? []).map((e) => `${e.resource?.resourceType}/${e.resource?.id}`);
      expect(refs).toContain(`Patient/${mariaId}`);
      expect(refs).toContain(`Observation/${mine.id}`);
      expect(refs).not.toContain(`Patient/${aishaId}`);
    });

    test('readCanonical finds a conformance resource by its url', async () => {
      const url = 'http://hl7.org/fhir/StructureDefinition/Patient';
      const definition = await chen.readCanonical('StructureDefinition', url);
      expect(definition).toMatchObject({ resourceType: 'StructureDefinition', url, type: 'Patient' });
      await expect(
        chen.readCanonical('StructureDefinition', 'http://example.org/none'),
      ).resolves.toBeUndefined();
    });
  });

  describe('searches', () => {
    test('search answers a searchset Bundle with total and self link', async () => {
      const bundle = await chen.search('Patient', { _id: mariaId, _total: 'accurate' });
      expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 1 });
      expect(bundle.entry?.[0]).toMatchObject({
        fullUrl: expect.stringContaining(`Patient/${mariaId}`),
        resource: { id: mariaId },
        search: { mode: 'match' },
      });
      expect(bundle.link?.find((l) => l.relation === 'self')?.url).toEqual(expect.any(String));
    });

    test('searchOne answers the first match, or undefined', async () => {
      await expect(chen.searchOne('Patient', { _id: mariaId })).resolves.toMatchObject({ id: mariaId });
      await expect(chen.searchOne('Patient', { _id: crypto.randomUUID() })).resolves.toBeUndefined();
    });

    test('searchResources answers the resources with the bundle beside them', async () => {
      const list = await chen.searchResources('Patient', { _id: `${mariaId},${aishaId}`, _sort: '_id' });
      expect(list.map((p) => p.id).sort()).toEqual([mariaId, aishaId].sort());
      expect(list.bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    });

    test("searchResourcePages follows the bundles' next links to the end", async () => {
      const code = `paged-${crypto.randomUUID()}`;
      const made = await Promise.all([observation(code), observation(code), observation(code)]);
      const pages: string[][] = [];
      for await (const page of chen.searchResourcePages('Observation', { 'code:text': code, _count: 2 })) {
        pages.push(page.map((o) => o.id as string));
      }
      expect(pages.map((p) => p.length)).toEqual([2, 1]);
      expect(pages.flat().sort()).toEqual(made.map((o) => o.id).sort());
    });
  });

  describe('writes', () => {
    test('createResource answers the created resource with id and first version', async () => {
      const created = await observation('create');
      expect(created).toMatchObject({ resourceType: 'Observation', id: expect.any(String), status: 'final' });
      expect(created.meta?.versionId).toEqual(expect.any(String));
    });

    test('createResourceIfNoneExist creates once, then answers the existing match', async () => {
      const system = 'urn:bloom:test:conditional';
      const value = crypto.randomUUID();
      const patient: Patient = {
        resourceType: 'Patient',
        identifier: [{ system, value }],
        name: [{ family: 'Once' }],
      };
      const first = await chen.createResourceIfNoneExist(patient, `identifier=${system}|${value}`);
      const second = await chen.createResourceIfNoneExist(patient, `identifier=${system}|${value}`);
      expect(second.id).toBe(first.id);
      expect(second.meta?.versionId).toBe(first.meta?.versionId);
      const found = await chen.searchResources('Patient', { identifier: `${system}|${value}` });
      expect(found).toHaveLength(1);
    });

    test('upsertResource creates when nothing matches and updates the match after', async () => {
      const system = 'urn:bloom:test:upsert';
      const value = crypto.randomUUID();
      const query = `identifier=${system}|${value}`;
      const created = await chen.upsertResource<Patient>(
        { resourceType: 'Patient', identifier: [{ system, value }], name: [{ family: 'Upsert' }] },
        query,
      );
      expect(created).toMatchObject({ resourceType: 'Patient', id: expect.any(String) });
      const updated = await chen.upsertResource<Patient>(
        { resourceType: 'Patient', identifier: [{ system, value }], name: [{ family: 'Upserted' }] },
        query,
      );
      expect(updated.id).toBe(created.id);
      expect(updated.name?.[0].family).toBe('Upserted');
      expect(updated.meta?.versionId).not.toBe(created.meta?.versionId);
    });

    test('updateResource answers the new version; a stale If-Match (versionId) is refused 412', async () => {
      const created = await observation('update');
      const updated = await chen.updateResource({ ...created, status: 'amended' });
      expect(updated).toMatchObject({ id: created.id, status: 'amended' });
      expect(updated.meta?.versionId).not.toBe(created.meta?.versionId);
      const stale = await rejectionOf(
        chen.updateResource(
          { ...created, status: 'corrected' },
          { headers: { 'If-Match': `W/"${created.meta?.versionId}"` } },
        ),
      );
      // Medplum's preconditionFailed: the id carries the status, the issue code is 'processing'.
      expect((stale as { outcome?: { id?: string } }).outcome?.id).toBe('precondition-failed');
      expect(outcomeOf(stale)[0]?.code).toBe('processing');
    });

    test('patchResource applies a JSON Patch and answers the patched resource', async () => {
      const created = await observation('patch');
      const patched = await chen.patchResource('Observation', created.id, [
        { op: 'test', path: '/status', value: 'final' },
        { op: 'replace', path: '/status', value: 'amended' },
        { op: 'add', path: '/note', value: [{ text: 'patched' }] },
      ]);
      expect(patched).toMatchObject({ id: created.id, status: 'amended', note: [{ text: 'patched' }] });
      const failed = await rejectionOf(
        chen.patchResource('Observation', created.id, [{ op: 'test', path: '/status', value: 'final' }]),
      );
      expect(outcomeOf(failed)[0]).toMatchObject({ code: 'invalid', text: expect.stringContaining('test') });
    });

    test('deleteResource removes the resource: a later read is gone (410)', async () => {
      const created = await observation('delete');
      await chen.deleteResource('Observation', created.id);
      const gone = await rejectionOf(chen.readResource('Observation', created.id));
      expect((gone as { outcome?: unknown }).outcome).toMatchObject({
        id: 'gone',
        issue: [{ severity: 'error', code: 'deleted', details: { text: 'Gone' } }],
      });
    });
  });

  describe('batch and transaction', () => {
    test('executeBatch(batch) answers a batch-response, each entry with its own status', async () => {
      const response = await chen.executeBatch({
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          { request: { method: 'GET', url: `Patient/${mariaId}` } },
          { request: { method: 'GET', url: `Patient/${crypto.randomUUID()}` } },
          {
            request: { method: 'POST', url: 'Observation' },
            resource: {
              resourceType: 'Observation',
              status: 'final',
              code: { text: 'batch' },
              subject: { reference: `Patient/${mariaId}` },
            },
          },
        ],
      });
      expect(response).toMatchObject({ resourceType: 'Bundle', type: 'batch-response' });
      expect(response.entry?.map((e) => e.response?.status.split(' ')[0])).toEqual(['200', '404', '201']);
      expect(response.entry?.[0].resource).toMatchObject({ resourceType: 'Patient', id: mariaId });
      expect(response.entry?.[2].resource).toMatchObject({
        resourceType: 'Observation',
        id: expect.any(String),
      });
    });

    test('executeBatch(transaction) resolves urn:uuid references and answers a transaction-response', async () => {
      const patientUrn = `urn:uuid:${crypto.randomUUID()}`;
      const response: Bundle = await chen.executeBatch({
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            fullUrl: patientUrn,
            request: { method: 'POST', url: 'Patient' },
            resource: { resourceType: 'Patient', name: [{ family: 'Transaction' }] },
          },
          {
            request: { method: 'POST', url: 'Observation' },
            resource: {
              resourceType: 'Observation',
              status: 'final',
              code: { text: 'transaction' },
              subject: { reference: patientUrn },
            },
          },
        ],
      });
      expect(response).toMatchObject({ resourceType: 'Bundle', type: 'transaction-response' });
      expect(response.entry?.map((e) => e.response?.status.split(' ')[0])).toEqual(['201', '201']);
      const patient = response.entry?.[0].resource as Patient;
      const obs = response.entry?.[1].resource as Observation;
      expect(obs.subject?.reference).toBe(`Patient/${patient.id}`);

      // All or nothing: a failing entry refuses the whole transaction and creates nothing.
      const family = `Rolled-${crypto.randomUUID()}`;
      const refused = await rejectionOf(
        chen.executeBatch({
          resourceType: 'Bundle',
          type: 'transaction',
          entry: [
            {
              request: { method: 'POST', url: 'Patient' },
              resource: { resourceType: 'Patient', name: [{ family }] },
            },
            { request: { method: 'GET', url: `Patient/${crypto.randomUUID()}` } },
          ],
        }),
      );
      expect(outcomeOf(refused)[0]).toMatchObject({ code: 'not-found', expression: ['Bundle.entry[1]'] });
      await expect(chen.searchResources('Patient', { family })).resolves.toHaveLength(0);
    });
  });

  describe('operations on data', () => {
    test('validateResource answers an OperationOutcome for a valid resource and refuses an invalid one', async () => {
      const ok = await chen.validateResource({ resourceType: 'Patient', name: [{ family: 'Valid' }] });
      expect(ok).toMatchObject({
        resourceType: 'OperationOutcome',
        id: 'ok',
        issue: [{ severity: 'information', code: 'informational', details: { text: 'All OK' } }],
      });
      const invalid = await rejectionOf(
        chen.validateResource({ resourceType: 'Patient', gender: 'unknown-value' } as unknown as Patient),
      );
      expect(outcomeOf(invalid)[0]).toMatchObject({
        expression: ['Patient.gender'],
        text: expect.stringContaining('http://hl7.org/fhir/ValueSet/administrative-gender'),
      });
    });

    test('graphql answers data (and errors) as Medplum does', async () => {
      const result = await chen.graphql(
        `query ($id: ID!) { Patient(id: $id) { resourceType id } }`,
        undefined,
        { id: mariaId },
      );
      expect(result).toEqual({ data: { Patient: { resourceType: 'Patient', id: mariaId } } });
      // A query the schema refuses is a 400 OperationOutcome (Medplum: invalidRequest of the
      // validation errors), which the SDK throws.
      const bad = await rejectionOf(chen.graphql('{ NoSuchType(id: "x") { id } }'));
      expect(outcomeOf(bad)[0]).toMatchObject({
        code: 'invalid',
        text: expect.stringContaining('NoSuchType'),
      });
    });

    test('valueSetExpand answers the expanded ValueSet, filtered', async () => {
      const expanded: ValueSet = await chen.valueSetExpand({
        url: 'http://hl7.org/fhir/ValueSet/administrative-gender',
        filter: 'fem',
      });
      expect(expanded).toMatchObject({ resourceType: 'ValueSet' });
      expect(expanded.expansion?.contains?.map((c) => c.code)).toEqual(['female']);
    });
  });

  describe("a patient cannot reach another patient's record", () => {
    test('readResource of Aisha as Maria is refused as not found', async () => {
      await expect(maria.readResource('Patient', mariaId)).resolves.toMatchObject({ id: mariaId });
      const refused = await rejectionOf(maria.readResource('Patient', aishaId));
      expect(outcomeOf(refused)[0]?.code).toBe('not-found');
    });

    test('search as Maria finds only her own record', async () => {
      const bundle = await maria.search('Patient', { _id: `${mariaId},${aishaId}` });
      expect(bundle.entry?.map((e) => e.resource?.id)).toEqual([mariaId]);
      const hers = await maria.search('Observation', { subject: `Patient/${aishaId}` });
      expect(hers.entry ?? []).toEqual([]);
    });

    test("graphql as Maria answers no Patient for Aisha's id, with an error", async () => {
      const result = await maria.graphql(`{ Patient(id: "${aishaId}") { id } }`);
      expect((result.data as { Patient: unknown } | undefined)?.Patient ?? null).toBeNull();
      expect(result.errors?.[0]).toMatchObject({ message: 'Not found', path: ['Patient'] });
    });

    test('readPatientEverything of Aisha as Maria is refused', async () => {
      const refused = await rejectionOf(maria.readPatientEverything(aishaId));
      expect(outcomeOf(refused)[0]?.code).toBe('not-found');
    });
  });
});
