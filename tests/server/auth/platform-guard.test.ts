// Platform resources are never reachable through the FHIR API with an ordinary token —
// no signing keys, password hashes or refresh secrets, and no self-made admin memberships.
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import {
  addMembership,
  createProject,
  createUser,
  getJson,
  outcomeText,
  postJson,
  signIn,
} from './support/auth-fixtures';

describe.each(databases())('platform resources on the FHIR API on %s', (_engine, kind) => {
  let server: TestServer;
  let patientToken: string;
  let adminToken: string;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    const project = await createProject(server.db);
    const patient = await createUser(server.db);
    await addMembership(server.db, patient, project, 'Patient');
    const admin = await createUser(server.db);
    await addMembership(server.db, admin, project, 'Practitioner', { admin: true });
    patientToken = (await signIn(server.baseUrl, patient.email as string)).access_token;
    adminToken = (await signIn(server.baseUrl, admin.email as string)).access_token;
  });

  afterAll(async () => {
    await server.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const fhirJson = (token: string) => ({ ...bearer(token), 'content-type': 'application/fhir+json' });

  test.each(['JsonWebKey', 'Login', 'User', 'UserSecurityRequest'])(
    '%s is refused even to a project admin',
    async (type) => {
      for (const token of [patientToken, adminToken]) {
        for (const path of [type, `${type}/_history`, `${type}/some-id`]) {
          const response = await getJson(`${server.fhirUrl}${path}`, bearer(token));
          expect(response.status).toBe(403);
          expect(outcomeText(response.body)).toBe(`Forbidden: ${type} is not accessible`);
        }
      }
    },
  );

  test.each(['ProjectMembership', 'ClientApplication', 'AccessPolicy', 'Project'])(
    '%s is refused to a patient and allowed to the project admin',
    async (type) => {
      expect((await getJson(`${server.fhirUrl}${type}`, bearer(patientToken))).status).toBe(403);
      expect((await getJson(`${server.fhirUrl}${type}`, bearer(adminToken))).status).toBe(200);
    },
  );

  test('a patient cannot make themselves admin, directly or through a batch or transaction', async () => {
    const membership = {
      resourceType: 'ProjectMembership',
      project: { reference: 'Project/x' },
      user: { reference: 'User/x' },
      profile: { reference: 'Practitioner/x' },
      admin: true,
    };
    const direct = await postJson(`${server.fhirUrl}ProjectMembership`, membership, fhirJson(patientToken));
    expect(direct.status).toBe(403);
    for (const type of ['batch', 'transaction']) {
      const bundle = await postJson(
        server.fhirUrl,
        {
          resourceType: 'Bundle',
          type,
          entry: [
            { resource: { resourceType: 'Observation' }, request: { method: 'POST', url: 'Observation' } },
            { resource: membership, request: { method: 'POST', url: 'ProjectMembership' } },
          ],
        },
        fhirJson(patientToken),
      );
      expect(bundle.status).toBe(403);
    }
    const hidden = await postJson(
      server.fhirUrl,
      {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [{ request: { method: 'GET', url: '/fhir/R4/JsonWebKey' } }],
      },
      fhirJson(adminToken),
    );
    expect(hidden.status).toBe(403);
  });

  test('ordinary clinical types stay reachable', async () => {
    expect((await getJson(`${server.fhirUrl}Observation`, bearer(patientToken))).status).toBe(200);
  });
});
