// Medplum's own MedplumClient (@medplum/core 5.2.13, unchanged) signs in to Bloom's real server over
// HTTP: every call below sends its JSON as application/fhir+json, as the SDK does, and
// each test checks what Medplum's server answers (status and shape), not only that nothing threw.
// PGlite, and PostgreSQL with TEST_DATABASE_URL.
import crypto from 'node:crypto';
import type { MedplumClient } from '@medplum/core';
import type { ClientApplication, Project } from '@medplum/fhirtypes';
import {
  addMembership,
  createClient,
  createProject,
  createUser,
  getJson,
  PASSWORD,
  pkce,
  postForm,
  uniqueEmail,
} from '../../server/auth/support/auth-fixtures';
import type { Tokens } from '../../server/auth/support/auth-fixtures';
import { databases } from '../../server/support/test-databases';
import { startTestServer } from '../../server/support/test-server';
import type { TestServer } from '../../server/support/test-server';
import {
  keepCodeVerifier,
  medplumClient,
  outcomeOf,
  rejectionOf,
  withBrowserBase64,
} from './support/medplum-client';

interface LoginAnswer {
  login: string;
  code?: string;
  memberships?: unknown[];
}

describe.each(databases())('MedplumClient signs in to Bloom (issue #20) on %s', (_engine, kind) => {
  let server: TestServer;
  let base: string;
  let project: Project;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    base = server.baseUrl;
    project = await createProject(server.db, 'Conformance Clinic');
  });

  afterAll(async () => {
    await server.close();
  });

  /** A practitioner of `project` with a password. */
  async function practitioner(): Promise<{ email: string }> {
    const user = await createUser(server.db);
    await addMembership(server.db, user, project, 'Practitioner');
    return { email: user.email as string };
  }

  /** The SDK's own password sign-in: startLogin with an S256 challenge, then processCode. */
  async function sdkSignIn(email: string): Promise<MedplumClient> {
    const medplum = await medplumClient(base);
    const { verifier, challenge } = pkce();
    const { code } = (await medplum.startLogin({
      email,
      password: PASSWORD,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    })) as LoginAnswer;
    keepCodeVerifier(medplum, verifier);
    await medplum.processCode(code as string);
    return medplum;
  }

  test("post('auth/method') answers {} for an email without an external identity provider", async () => {
    const medplum = await medplumClient(base);
    await expect(medplum.post('auth/method', { email: 'someone@nowhere.example' })).resolves.toEqual({});
  });

  test('startLogin with an S256 challenge answers {login, code} for a user of one project', async () => {
    const { email } = await practitioner();
    const medplum = await medplumClient(base);
    const { challenge } = pkce();
    const answer = (await medplum.startLogin({
      email,
      password: PASSWORD,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    })) as LoginAnswer;
    expect(answer).toEqual({ login: expect.any(String), code: expect.any(String) });
  });

  test('processCode exchanges the code (with the verifier in its storage) and loads the profile from auth/me', async () => {
    const { email } = await practitioner();
    const medplum = await medplumClient(base);
    const { verifier, challenge } = pkce();
    const { code } = (await medplum.startLogin({
      email,
      password: PASSWORD,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    })) as LoginAnswer;
    keepCodeVerifier(medplum, verifier);
    const profile = await medplum.processCode(code as string);
    expect(profile.resourceType).toBe('Practitioner');
    expect(medplum.getProfile()?.id).toBe(profile.id);
    expect(medplum.getProject()?.id).toBe(project.id);
    expect(medplum.getActiveLogin()).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      profile: { reference: `Practitioner/${profile.id}` },
    });
  });

  test('the code exchanged at oauth2/token, then setActiveLogin, as an app holding the verifier does', async () => {
    const { email } = await practitioner();
    const medplum = await medplumClient(base);
    const { verifier, challenge } = pkce();
    const { code } = (await medplum.startLogin({
      email,
      password: PASSWORD,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    })) as LoginAnswer;
    const token = await postForm<Tokens>(`${base}oauth2/token`, {
      grant_type: 'authorization_code',
      code: code as string,
      code_verifier: verifier,
    });
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({
      token_type: 'Bearer',
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      project: { reference: `Project/${project.id}` },
      profile: { reference: expect.stringMatching(/^Practitioner\//) },
    });
    await medplum.setActiveLogin({
      accessToken: token.body.access_token,
      refreshToken: token.body.refresh_token as string,
      project: token.body.project as { reference: string },
      profile: token.body.profile as { reference: string },
    });
    expect(medplum.getProfile()?.resourceType).toBe('Practitioner');
  });

  test("getProfile and get('auth/me') answer the session: profile, project, membership, user, config", async () => {
    const { email } = await practitioner();
    const medplum = await sdkSignIn(email);
    const profile = medplum.getProfile();
    expect(profile?.resourceType).toBe('Practitioner');
    const me = await medplum.get('auth/me');
    expect(me).toMatchObject({
      profile: { resourceType: 'Practitioner', id: profile?.id },
      project: { resourceType: 'Project', id: project.id, name: 'Conformance Clinic' },
      membership: {
        resourceType: 'ProjectMembership',
        profile: { reference: `Practitioner/${profile?.id}` },
      },
      user: { resourceType: 'User', email },
      config: { resourceType: 'UserConfiguration' },
    });
    expect(medplum.getUserConfiguration()?.resourceType).toBe('UserConfiguration');
  });

  test('startNewUser then startNewPatient: {login}, then {login, code} for the new Patient membership', async () => {
    const medplum = await medplumClient(base);
    const email = uniqueEmail('sdk-patient');
    const created = (await withBrowserBase64(() =>
      medplum.startNewUser({
        firstName: 'Ada',
        lastName: 'Okafor',
        email,
        password: PASSWORD,
        projectId: project.id,
        recaptchaToken: '',
      }),
    )) as LoginAnswer;
    expect(created).toEqual({ login: expect.any(String) });
    const patient = (await medplum.startNewPatient({
      login: created.login,
      projectId: project.id as string,
    })) as LoginAnswer;
    expect(patient).toEqual({ login: created.login, code: expect.any(String) });
    // The verifier startPkce kept in the client's storage finishes the sign-in.
    const profile = await medplum.processCode(patient.code as string);
    expect(profile).toMatchObject({ resourceType: 'Patient', name: [{ given: ['Ada'], family: 'Okafor' }] });
    expect(medplum.getProject()?.id).toBe(project.id);
  });

  test('startNewUser then startNewProject: {login}, then {login, code} for the admin of the new project', async () => {
    const medplum = await medplumClient(base);
    const created = (await withBrowserBase64(() =>
      medplum.startNewUser({
        firstName: 'Ravi',
        lastName: 'Menon',
        email: uniqueEmail('sdk-founder'),
        password: PASSWORD,
        recaptchaToken: '',
      }),
    )) as LoginAnswer;
    expect(created).toEqual({ login: expect.any(String) });
    const founded = (await medplum.startNewProject({
      login: created.login,
      projectName: 'Menon Midwifery',
    })) as LoginAnswer;
    expect(founded).toEqual({ login: created.login, code: expect.any(String) });
    const profile = await medplum.processCode(founded.code as string);
    expect(profile.resourceType).toBe('Practitioner');
    expect(medplum.getProject()?.name).toBe('Menon Midwifery');
    expect(medplum.isProjectAdmin()).toBe(true);
  });

  test('startClientLogin (client credentials) signs in as the ClientApplication', async () => {
    const secret = crypto.randomBytes(24).toString('hex');
    const client: ClientApplication = await createClient(server.db, project, { secret });
    const medplum = await medplumClient(base);
    const profile = await medplum.startClientLogin(client.id as string, secret);
    expect(profile).toMatchObject({ resourceType: 'ClientApplication', id: client.id });
    expect(medplum.getProject()?.id).toBe(project.id);
    const refused = await rejectionOf(
      (await medplumClient(base)).startClientLogin(client.id as string, 'not-the-secret'),
    );
    expect((refused as Error).message).toMatch(/^Failed to fetch tokens: /);
  });

  test('signOut posts {} as application/fhir+json to oauth2/logout; the access and refresh tokens stop working', async () => {
    const { email } = await practitioner();
    const medplum = await sdkSignIn(email);
    const { accessToken, refreshToken } = medplum.getActiveLogin() as {
      accessToken: string;
      refreshToken: string;
    };
    const bearer = { authorization: `Bearer ${accessToken}` };
    expect((await getJson(`${base}auth/me`, bearer)).status).toBe(200);

    await medplum.signOut();
    expect(medplum.getActiveLogin()).toBeUndefined();
    expect(medplum.getProfile()).toBeUndefined();

    const me = await getJson(`${base}auth/me`, bearer);
    expect(me.status).toBe(401);
    expect(me.body).toMatchObject({ resourceType: 'OperationOutcome' });
    expect((await getJson(`${server.fhirUrl}Patient`, bearer)).status).toBe(401);
    const refreshed = await postForm(`${base}oauth2/token`, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body).toMatchObject({ error: 'invalid_grant' });
  });

  test('oauth2/logout answers 200 with an allOk OperationOutcome, as Medplum does', async () => {
    const { email } = await practitioner();
    const medplum = await sdkSignIn(email);
    // The SDK's own request, its answer read: post() resolves to the body.
    const answer = await medplum.post(medplum.getLogoutUrl(), {});
    expect(answer).toMatchObject({
      resourceType: 'OperationOutcome',
      id: 'ok',
      issue: [{ severity: 'information', code: 'informational' }],
    });
  });

  test('startLogin naming a project without a membership of the user: 400 naming the project, no Login answer', async () => {
    const { email } = await practitioner();
    const elsewhere = await createProject(server.db, 'Not Theirs');
    const medplum = await medplumClient(base);
    const { challenge } = pkce();
    const refused = await rejectionOf(
      medplum.startLogin({
        email,
        password: PASSWORD,
        projectId: elsewhere.id,
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
      }),
    );
    expect(outcomeOf(refused)).toEqual([
      { text: `User is not a member of Project/${elsewhere.id}`, expression: ['projectId'], code: 'invalid' },
    ]);
    // Raw, for the status: a 400, never a 200 with neither a code nor memberships.
    const raw = await fetch(`${base}auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: JSON.stringify({ email, password: PASSWORD, projectId: elsewhere.id }),
    });
    expect(raw.status).toBe(400);
    // The same user names their own project: the code follows.
    const own = (await medplum.startLogin({
      email,
      password: PASSWORD,
      projectId: project.id,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    })) as LoginAnswer;
    expect(own.code).toEqual(expect.any(String));
  });

  test('startNewUser naming an unknown project: 400 naming it, and no User is created', async () => {
    const medplum = await medplumClient(base);
    const email = uniqueEmail('sdk-lost');
    const missing = crypto.randomUUID();
    const refused = await rejectionOf(
      withBrowserBase64(() =>
        medplum.startNewUser({
          firstName: 'Lost',
          lastName: 'Person',
          email,
          password: PASSWORD,
          projectId: missing,
          recaptchaToken: '',
        }),
      ),
    );
    expect(outcomeOf(refused)).toEqual([
      { text: `Project/${missing} not found`, expression: ['projectId'], code: 'invalid' },
    ]);
    const { rows } = await server.db.query(
      "SELECT 1 FROM resource WHERE resource_type = 'User' AND lower(content->>'email') = lower($1)",
      [email],
    );
    expect(rows).toHaveLength(0);
  });
});
