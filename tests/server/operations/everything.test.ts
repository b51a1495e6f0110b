// Patient/{id}/$everything over real HTTP (SPEC §6 access, §7
// readPatientEverything): the Patient first, then its compartment as the caller may read it, paged.
import type { Bundle, Observation, Resource } from '@medplum/fhirtypes';
import { databases } from '../support/test-databases';
import { call, startClinic } from './support/clinic';
import type { Clinic } from './support/clinic';
import type { Tokens } from '../auth/support/auth-fixtures';
import { buildPatientAccessPolicy } from '../../../src/server/seed';

describe.each(databases())('Patient $everything on %s', (_engine, kind) => {
  let clinic: Clinic;
  let mariaId: string;
  let aishaId: string;

  beforeAll(async () => {
    clinic = await startClinic(kind);
    mariaId = (clinic.maria.profile?.reference as string).split('/')[1];
    aishaId = (clinic.aisha.profile?.reference as string).split('/')[1];
  });

  afterAll(async () => {
    await clinic.server.close();
  });

  const everything = (patientId: string, tokens: Tokens | undefined, query = '') =>
    call<Bundle>(clinic.server, 'GET', `fhir/R4/Patient/${patientId}/$everything${query}`, tokens);

  const resources = (bundle: Bundle): Resource[] => (bundle.entry ?? []).map((e) => e.resource as Resource);

  async function all(patientId: string, tokens: Tokens): Promise<Resource[]> {
    const response = await everything(patientId, tokens, '?_count=1000');
    expect(response.status).toBe(200);
    return resources(response.body);
  }

  test('SPEC §7 Maria gets her Patient first, then only resources of her compartment, as a searchset', async () => {
    const response = await everything(mariaId, clinic.maria);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(response.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    const list = resources(response.body);
    expect(list[0]).toMatchObject({ resourceType: 'Patient', id: mariaId });
    expect(list.length).toBeGreaterThan(5);
    // The default page (1000) holds her whole record: no next link.
    expect(response.body.link?.find((l) => l.relation === 'next')).toBeUndefined();
    expect(list).toHaveLength((await all(mariaId, clinic.maria)).length);
    for (const resource of list) {
      const compartments = (resource.meta?.compartment ?? []).map((c) => c.reference);
      expect(compartments).toContain(`Patient/${mariaId}`);
    }
    expect(response.body.entry?.[1]?.fullUrl).toBe(
      `${clinic.server.fhirUrl}${list[1].resourceType}/${list[1].id}`,
    );
    expect(JSON.stringify(response.body)).not.toContain(aishaId);
  });

  test('SPEC §6 a patient gets only the types her access policy lets her read; Dr Chen and the admin see more', async () => {
    const readable = new Set(buildPatientAccessPolicy().resource?.map((r) => r.resourceType));
    // A clinician's record in Maria's compartment, of a type her policy does not list.
    const condition = await call<Resource>(
      clinic.server,
      'POST',
      'fhir/R4/FamilyMemberHistory',
      clinic.chen,
      {
        body: {
          resourceType: 'FamilyMemberHistory',
          status: 'completed',
          patient: { reference: `Patient/${mariaId}` },
          relationship: { text: 'everything-hidden' },
        },
      },
    );
    expect(condition.status).toBe(201);
    expect(readable.has('FamilyMemberHistory')).toBe(false);
    const mine = await all(mariaId, clinic.maria);
    for (const resource of mine) {
      expect(readable).toContain(resource.resourceType);
    }
    const byChen = await all(mariaId, clinic.chen);
    const byAdmin = await all(mariaId, clinic.admin);
    const ids = (list: Resource[]) => list.map((r) => `${r.resourceType}/${r.id}`).sort();
    expect(ids(byChen)).toEqual(expect.arrayContaining(ids(mine)));
    expect(ids(byAdmin)).toEqual(ids(byChen));
    expect(byChen[0]).toMatchObject({ resourceType: 'Patient', id: mariaId });
    expect(ids(byChen)).toContain(`FamilyMemberHistory/${condition.body.id}`);
    expect(ids(mine)).not.toContain(`FamilyMemberHistory/${condition.body.id}`);
  });

  test("SPEC §6 Aisha's $everything is 404 for Maria and for another project, with the body of a missing Patient", async () => {
    const missing = await everything(crypto.randomUUID(), clinic.maria);
    expect(missing.status).toBe(404);
    for (const tokens of [clinic.maria, clinic.otherAdmin]) {
      const hidden = await everything(aishaId, tokens);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(missing.body);
    }
    expect((await everything(mariaId, clinic.otherAdmin)).status).toBe(404);
    expect((await everything(aishaId, clinic.aisha)).status).toBe(200);
  });

  test('anonymous is 401', async () => {
    expect((await everything(mariaId, undefined)).status).toBe(401);
  });

  test('_count pages through everything with next links: no resource twice, none missing', async () => {
    const full = await all(mariaId, clinic.chen);
    const seen: string[] = [];
    let url: string | undefined = `fhir/R4/Patient/${mariaId}/$everything?_count=7`;
    let pages = 0;
    while (url) {
      const page: { status: number; body: Bundle } = await call<Bundle>(
        clinic.server,
        'GET',
        url,
        clinic.chen,
      );
      expect(page.status).toBe(200);
      expect(page.body.entry?.length ?? 0).toBeLessThanOrEqual(7);
      seen.push(...resources(page.body).map((r) => `${r.resourceType}/${r.id}`));
      const next = page.body.link?.find((l) => l.relation === 'next')?.url;
      url = next?.slice(clinic.server.baseUrl.length);
      pages += 1;
    }
    expect(pages).toBe(Math.ceil(full.length / 7));
    expect(seen).toEqual(full.map((r) => `${r.resourceType}/${r.id}`));
    expect(new Set(seen).size).toBe(seen.length);
  });

  test('_since keeps what changed since then; _type keeps the named types', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const since = new Date().toISOString();
    const created = await call<Observation>(clinic.server, 'POST', 'fhir/R4/Observation', clinic.chen, {
      body: {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'everything-since' },
        subject: { reference: `Patient/${mariaId}` },
      },
    });
    expect(created.status).toBe(201);
    const recent = resources(
      (await everything(mariaId, clinic.chen, `?_since=${encodeURIComponent(since)}`)).body,
    );
    expect(recent.map((r) => r.id)).toEqual([created.body.id]);
    const older = resources(
      (await everything(mariaId, clinic.chen, `?_since=${encodeURIComponent(before)}&_count=1000`)).body,
    );
    expect(older.map((r) => r.id)).toContain(created.body.id);
    const observations = resources(
      (await everything(mariaId, clinic.chen, '?_type=Observation&_count=1000')).body,
    );
    expect(observations.length).toBeGreaterThan(1);
    expect(new Set(observations.map((r) => r.resourceType))).toEqual(new Set(['Observation']));
    const two = resources(
      (await everything(mariaId, clinic.chen, '?_type=Patient,Observation&_count=1000')).body,
    );
    expect(two[0]).toMatchObject({ resourceType: 'Patient', id: mariaId });
    expect(two).toHaveLength(observations.length + 1);
  });

  test.each([
    ['?_count=abc', '_count'],
    ['?_count=1&_count=2', '_count'],
    ['?_since=yesterday', '_since'],
    ['?_type=Practitioner', '_type'],
    ['?_type=NotAType', '_type'],
    ['?name=maria', 'name'],
  ])('bad parameter %s is 400 naming %s', async (query, name) => {
    const response = await everything(mariaId, clinic.chen, query);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain(name);
  });
});
