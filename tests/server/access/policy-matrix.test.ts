// The AccessPolicy over real HTTP (SPEC §6), on PGlite and PostgreSQL: real sign-ins for members
// whose policies are data, against read, vread, history, create, update, patch, delete,
// conditional create, batch, transaction and GraphQL. Rule kinds: criteria with %profile, %patient
// and a named parameter, interaction, hidden and readonly fields, writeConstraint, compartment,
// two policies combined (IP rules: policy-ip-signin.test.ts). A refused read is 404 (must not
// reveal), a refused write 403.
// Search, _include and totals under criteria are the SQL's (tests/server/search).
import type {
  AccessPolicy,
  Bundle,
  Observation,
  Patient,
  Practitioner,
  Project,
  ProjectMembership,
  User,
} from '@medplum/fhirtypes';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { createProject, createUser, signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

const READ = ['read', 'vread', 'history', 'search'] as const;

interface Answer<T> {
  status: number;
  body: T;
}

describe.each(databases())('SPEC §6 AccessPolicy matrix over HTTP on %s', (_engine, kind) => {
  let server: TestServer;
  let db: Database;
  let project: Project;
  let system: Repository;
  let chen: Tokens;
  let chenRef: string;
  let otherDoctorRef: string;
  let nurse: Tokens;
  let maria: Tokens;
  let mariaRef: string;
  let aishaRef: string;
  let chenObs: Observation;
  let otherObs: Observation;

  async function call<T = Record<string, unknown>>(
    method: string,
    path: string,
    tokens: Tokens,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const response = await fetch(`${server.fhirUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/fhir+json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
  }

  async function policy(resource: AccessPolicy): Promise<AccessPolicy> {
    return system.createResource(resource);
  }

  /** A user signed in with a membership whose access is given as data. */
  async function member(
    profileType: 'Patient' | 'Practitioner',
    access: Pick<ProjectMembership, 'accessPolicy' | 'access'>,
    profileFields: { birthDate?: string } = {},
  ): Promise<{ tokens: Tokens; ref: string }> {
    const user: User = await createUser(db);
    const profile = await system.createResource<Patient | Practitioner>({
      resourceType: profileType,
      name: [{ family: 'Member' }],
      ...profileFields,
    } as Patient);
    const ref = `${profileType}/${profile.id}`;
    await system.createResource<ProjectMembership>({
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${project.id}` },
      user: { reference: `User/${user.id}` },
      profile: { reference: ref },
      ...access,
    });
    return { tokens: await signIn(server.baseUrl, user.email as string), ref };
  }

  const observation = (performer: string, subject: string, text = 'reading'): Observation => ({
    resourceType: 'Observation',
    status: 'final',
    code: { text },
    subject: { reference: subject },
    performer: [{ reference: performer }],
  });

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    db = server.db;
    project = await createProject(db, 'Policy Clinic');
    system = new Repository(db, systemContext(project.id));
    const aisha = await system.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ family: 'Aisha' }],
    });
    aishaRef = `Patient/${aisha.id}`;
    const other = await system.createResource<Practitioner>({ resourceType: 'Practitioner' });
    otherDoctorRef = `Practitioner/${other.id}`;

    // The issue's practitioner policy: only his Observations, and the clinic's Patients read-only.
    const practitionerPolicy = await policy({
      resourceType: 'AccessPolicy',
      name: 'Practitioner',
      resource: [
        { resourceType: 'Observation', criteria: 'Observation?performer=%profile' },
        { resourceType: 'Patient', readonly: true },
      ],
    });
    ({ tokens: chen, ref: chenRef } = await member('Practitioner', {
      accessPolicy: { reference: `AccessPolicy/${practitionerPolicy.id}` },
    }));

    // Two policies combined, parameterised: the Observations about one patient (named parameter)
    // with the note hidden and the status read-only, plus Patients with birthDate hidden.
    const aboutPatient = await policy({
      resourceType: 'AccessPolicy',
      name: 'About one patient',
      resource: [
        {
          resourceType: 'Observation',
          criteria: 'Observation?subject=%ward',
          hiddenFields: ['note'],
          readonlyFields: ['status'],
          interaction: [...READ, 'update'],
        },
      ],
    });
    const patientsHidden = await policy({
      resourceType: 'AccessPolicy',
      name: 'Patients without birth dates',
      resource: [{ resourceType: 'Patient', readonly: true, hiddenFields: ['birthDate'] }],
    });
    ({ tokens: nurse } = await member('Practitioner', {
      access: [
        {
          policy: { reference: `AccessPolicy/${aboutPatient.id}` },
          parameter: [{ name: 'ward', valueReference: { reference: aishaRef } }],
        },
        { policy: { reference: `AccessPolicy/${patientsHidden.id}` } },
      ],
    }));

    // A patient: her compartment, Observations she creates as their performer (writeConstraint),
    // her Patient updatable except its birthDate; AccessPolicy.compartment places what she writes.
    const patientPolicy = await policy({
      resourceType: 'AccessPolicy',
      name: 'Patient',
      compartment: { reference: '%patient' },
      resource: [
        {
          resourceType: 'Patient',
          compartment: { reference: '%patient' },
          interaction: [...READ, 'update'],
          readonlyFields: ['birthDate'],
        },
        {
          resourceType: 'Observation',
          compartment: { reference: '%patient' },
          interaction: [...READ, 'create'],
          writeConstraint: [
            { language: 'text/fhirpath', expression: "%after.performer.all(reference = '%patient')" },
          ],
        },
        { resourceType: 'Subscription', compartment: { reference: '%patient' } },
      ],
    });
    ({ tokens: maria, ref: mariaRef } = await member(
      'Patient',
      { accessPolicy: { reference: `AccessPolicy/${patientPolicy.id}` } },
      { birthDate: '1990-01-01' },
    ));

    chenObs = await system.createResource(observation(chenRef, aishaRef, 'his'));
    otherObs = await system.createResource({
      ...observation(otherDoctorRef, aishaRef, 'not his'),
      note: [{ text: 'private note' }],
    });
  });

  afterAll(async () => {
    await server.close();
  });

  test('SPEC §6 criteria with %profile: read, vread, history of his Observations; others 404', async () => {
    for (const path of [
      `Observation/${chenObs.id}`,
      `Observation/${chenObs.id}/_history/${chenObs.meta?.versionId}`,
      `Observation/${chenObs.id}/_history`,
    ]) {
      expect((await call('GET', path, chen)).status).toBe(200);
    }
    for (const path of [
      `Observation/${otherObs.id}`,
      `Observation/${otherObs.id}/_history/${otherObs.meta?.versionId}`,
      `Observation/${otherObs.id}/_history`,
    ]) {
      const answer = await call('GET', path, chen);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(JSON.stringify(answer.body)).not.toContain('not his');
    }
  });

  test("SPEC §6 _project criteria (Medplum's meta.project token) are SQL of the search and decide reads", async () => {
    const { tokens } = await member('Practitioner', {
      accessPolicy: {
        reference: `AccessPolicy/${
          (
            await policy({
              resourceType: 'AccessPolicy',
              name: 'This project, final only; Patients of no project',
              resource: [
                { resourceType: 'Observation', criteria: `Observation?_project=${project.id}&status=final` },
                {
                  resourceType: 'Patient',
                  criteria: 'Patient?_project=00000000-0000-4000-8000-000000000000',
                },
              ],
            })
          ).id
        }`,
      },
    });
    const draft = await system.createResource<Observation>({
      ...observation(chenRef, aishaRef),
      status: 'preliminary',
    });
    const search = await call<Bundle<Observation>>('GET', 'Observation?_total=accurate&_count=1000', tokens);
    expect(search.status).toBe(200);
    const ids = (search.body.entry ?? []).map((e) => e.resource?.id);
    expect(ids).toEqual(expect.arrayContaining([chenObs.id, otherObs.id]));
    expect(ids).not.toContain(draft.id);
    expect(search.body.entry?.every((e) => e.resource?.status === 'final')).toBe(true);
    expect(search.body.total).toBe(ids.length);
    expect((await call('GET', `Observation/${draft.id}`, tokens)).status).toBe(404);
    expect((await call('GET', `Observation/${chenObs.id}`, tokens)).status).toBe(200);
    // Another project's id grants nothing: no Patient of this project, by search or read.
    const patients = await call<Bundle>('GET', 'Patient?_summary=count', tokens);
    expect(patients.body.total).toBe(0);
    expect((await call('GET', aishaRef, tokens)).status).toBe(404);
  });

  test('SPEC §6 history judges each version on its own content: versions outside the criteria are left out', async () => {
    const { tokens } = await member('Practitioner', {
      accessPolicy: {
        reference: `AccessPolicy/${
          (
            await policy({
              resourceType: 'AccessPolicy',
              name: 'Final Observations',
              resource: [
                { resourceType: 'Observation', criteria: 'Observation?status=final&code=history-test' },
              ],
            })
          ).id
        }`,
      },
    });
    const base = {
      ...observation(chenRef, aishaRef, 'history-test'),
      code: { coding: [{ code: 'history-test' }] },
    };
    // v1 final, v2 preliminary, v3 final again.
    const v1 = await system.createResource<Observation>(base);
    const v2 = (await system.updateResource<Observation>({ ...v1, status: 'preliminary' })).resource;
    const v3 = (await system.updateResource<Observation>({ ...v2, status: 'final' })).resource;
    // Was final once, preliminary now.
    const w1 = await system.createResource<Observation>(base);
    const w2 = (await system.updateResource<Observation>({ ...w1, status: 'preliminary' })).resource;
    // Never final.
    const never = await system.createResource<Observation>({ ...base, status: 'preliminary' });

    const versions = async (path: string): Promise<(string | undefined)[]> => {
      const answer = await call<Bundle<Observation>>('GET', path, tokens);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      return (answer.body.entry ?? []).map((e) => e.resource?.meta?.versionId);
    };
    const versionOf = (r: Observation): string | undefined => r.meta?.versionId;
    expect(await versions(`Observation/${v1.id}/_history`)).toEqual([versionOf(v3), versionOf(v1)]);
    expect(await versions(`Observation/${w1.id}/_history`)).toEqual([versionOf(w1)]);
    expect((await call('GET', `Observation/${w1.id}`, tokens)).status).toBe(404);
    expect((await call('GET', `Observation/${never.id}/_history`, tokens)).status).toBe(404);

    const typeHistory = await versions('Observation/_history?_count=1000');
    expect(typeHistory).toEqual(expect.arrayContaining([versionOf(v1), versionOf(v3), versionOf(w1)]));
    for (const hidden of [v2, w2, never]) {
      expect(typeHistory).not.toContain(versionOf(hidden));
    }
    // Paging counts only the versions the caller may see.
    const page = await call<Bundle<Observation>>(
      'GET',
      `Observation/${v1.id}/_history?_count=1&_offset=1`,
      tokens,
    );
    expect(page.body.entry?.map((e) => e.resource?.meta?.versionId)).toEqual([versionOf(v1)]);
  });

  test('SPEC §6 criteria on writes: the current and the new version must satisfy them', async () => {
    // Update of another's: unreadable, 404; his own moved to another performer: 403.
    expect(
      (await call('PUT', `Observation/${otherObs.id}`, chen, { ...otherObs, status: 'amended' })).status,
    ).toBe(404);
    expect(
      (
        await call('PUT', `Observation/${chenObs.id}`, chen, {
          ...chenObs,
          performer: [{ reference: otherDoctorRef }],
        })
      ).status,
    ).toBe(403);
    const patched = await call(
      'PATCH',
      `Observation/${chenObs.id}`,
      chen,
      [{ op: 'replace', path: '/status', value: 'amended' }],
      {
        'content-type': 'application/json-patch+json',
      },
    );
    expect(patched.status).toBe(200);
    expect((await call('DELETE', `Observation/${otherObs.id}`, chen)).status).toBe(404);
    // Create: his own, yes; one naming another performer, 403 (conditional create too).
    expect((await call('POST', 'Observation', chen, observation(chenRef, aishaRef))).status).toBe(201);
    expect((await call('POST', 'Observation', chen, observation(otherDoctorRef, aishaRef))).status).toBe(403);
    expect(
      (
        await call('POST', 'Observation', chen, observation(otherDoctorRef, aishaRef), {
          'if-none-exist': `_id=${crypto.randomUUID()}`,
        })
      ).status,
    ).toBe(403);
    // Patients: read-only.
    expect((await call('GET', aishaRef, chen)).status).toBe(200);
    expect(
      (await call('PUT', aishaRef, chen, { resourceType: 'Patient', id: aishaRef.split('/')[1] })).status,
    ).toBe(403);
    // Nothing refused was written.
    expect((await system.readResource<Observation>('Observation', otherObs.id!)).status).toBe('final');
    expect((await system.readResource<Observation>('Observation', chenObs.id!)).performer).toEqual([
      { reference: chenRef },
    ]);
  });

  test('SPEC §6 batch and transaction entries get the same per-resource answers', async () => {
    const batch = await call<Bundle>('POST', '', chen, {
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        { request: { method: 'GET', url: `Observation/${chenObs.id}` } },
        { request: { method: 'GET', url: `Observation/${otherObs.id}` } },
        { request: { method: 'POST', url: 'Observation' }, resource: observation(otherDoctorRef, aishaRef) },
        { request: { method: 'DELETE', url: `Observation/${otherObs.id}` } },
      ],
    });
    expect(batch.body.entry?.map((e) => e.response?.status.slice(0, 3))).toEqual([
      '200',
      '404',
      '403',
      '404',
    ]);
    expect(JSON.stringify(batch.body)).not.toContain('not his');
    const transaction = await call<Bundle>('POST', '', chen, {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          request: { method: 'POST', url: 'Observation' },
          resource: observation(chenRef, aishaRef, 'tx ok'),
        },
        {
          request: { method: 'POST', url: 'Observation' },
          resource: observation(otherDoctorRef, aishaRef, 'tx no'),
        },
      ],
    });
    expect(transaction.status).toBe(403);
  });

  test('SPEC §6 two policies combined: named parameter criteria, hidden and readonly fields', async () => {
    const read = await call<Observation>('GET', `Observation/${otherObs.id}`, nurse);
    expect(read.status).toBe(200);
    expect(read.body.note).toBeUndefined();
    const history = await call<Bundle>('GET', `Observation/${otherObs.id}/_history`, nurse);
    expect(JSON.stringify(history.body)).not.toContain('private note');
    // Hidden fields are never written: the stored note is kept; a readonly field cannot change.
    const kept = await call<Observation>('PUT', `Observation/${otherObs.id}`, nurse, {
      ...read.body,
      code: { text: 'recoded' },
      note: [{ text: 'overwritten' }],
    });
    expect(kept.status).toBe(200);
    expect(kept.body.note).toBeUndefined();
    const stored = await system.readResource<Observation>('Observation', otherObs.id!);
    expect(stored.note).toEqual([{ text: 'private note' }]);
    expect(stored.code.text).toBe('recoded');
    const readonly = await call<{ issue: { expression?: string[] }[] }>(
      'PUT',
      `Observation/${otherObs.id}`,
      nurse,
      {
        ...kept.body,
        status: 'amended',
      },
    );
    expect(readonly.status).toBe(403);
    expect(readonly.body.issue[0].expression).toEqual(['Observation.status']);
    // Not about her ward: 404; no create or delete interaction: 403.
    const elsewhere = await system.createResource(
      observation(otherDoctorRef, `Patient/${crypto.randomUUID()}`),
    );
    expect((await call('GET', `Observation/${elsewhere.id}`, nurse)).status).toBe(404);
    expect((await call('POST', 'Observation', nurse, observation(otherDoctorRef, aishaRef))).status).toBe(
      403,
    );
    expect((await call('DELETE', `Observation/${otherObs.id}`, nurse)).status).toBe(403);
    // The second policy: Patients readable, birthDate hidden.
    const patient = await call<Patient>('GET', mariaRef, nurse);
    expect(patient.status).toBe(200);
    expect(patient.body.birthDate).toBeUndefined();
    // GraphQL reads through the same Repository.
    const graphql = await call<{ data: { Observation: Observation | null } }>('POST', '$graphql', nurse, {
      query: `{ Observation(id: "${otherObs.id}") { id status note { text } } }`,
    });
    expect(graphql.body.data.Observation?.id).toBe(otherObs.id);
    expect(JSON.stringify(graphql.body)).not.toContain('private note');
  });

  test('SPEC §6 a patient: compartment, interaction, writeConstraint, readonly field, AccessPolicy.compartment', async () => {
    const mine = await call<Observation>(
      'POST',
      'Observation',
      maria,
      observation(mariaRef, mariaRef, 'mine'),
    );
    expect(mine.status).toBe(201);
    // writeConstraint: she cannot attribute an Observation to a practitioner.
    expect((await call('POST', 'Observation', maria, observation(chenRef, mariaRef))).status).toBe(403);
    // Another patient's compartment only: not hers (with her as performer it would also be in hers).
    expect(
      (await call('POST', 'Observation', maria, { ...observation(mariaRef, aishaRef), performer: undefined }))
        .status,
    ).toBe(403);
    expect((await call('GET', `Observation/${otherObs.id}`, maria)).status).toBe(404);
    // interaction: read and create only.
    expect(
      (await call('PUT', `Observation/${mine.body.id}`, maria, { ...mine.body, status: 'amended' })).status,
    ).toBe(403);
    expect((await call('DELETE', `Observation/${mine.body.id}`, maria)).status).toBe(403);
    // Her Patient: updatable, birthDate read-only (403 naming it).
    const own = await call<Patient>('GET', mariaRef, maria);
    expect((await call('PUT', mariaRef, maria, { ...own.body, gender: 'female' })).status).toBe(200);
    const moved = await call<{ issue: { expression?: string[] }[] }>('PUT', mariaRef, maria, {
      ...own.body,
      birthDate: '1991-01-01',
    });
    expect(moved.status).toBe(403);
    expect(moved.body.issue[0].expression).toEqual(['Patient.birthDate']);
    // AccessPolicy.compartment: a Subscription names no patient and is placed in hers.
    const subscription = await call<{ id: string; meta: { compartment?: { reference: string }[] } }>(
      'POST',
      'Subscription',
      maria,
      {
        resourceType: 'Subscription',
        status: 'active',
        reason: 'live',
        criteria: `Observation?subject=${mariaRef}`,
        channel: { type: 'websocket' },
      },
    );
    expect(subscription.status).toBe(201);
    expect(subscription.body.meta.compartment).toContainEqual({ reference: mariaRef });
    expect((await call('GET', `Subscription/${subscription.body.id}`, maria)).status).toBe(200);
  });
});
