// SPEC §7 Authentication over real HTTP: auth/method, auth/login and its steps (memberships,
// profile, scope), registration (newuser, newpatient, newproject), auth/me, changepassword.
import type { DomainConfiguration, Login, Project, ProjectMembership, User } from '@medplum/fhirtypes';
import { Repository, systemContext } from '../../../src/server/repo';
import { findUserByEmail } from '../../../src/server/repo/lookups';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import {
  addMembership,
  createProject,
  createUser,
  getJson,
  outcomeExpression,
  outcomeText,
  PASSWORD,
  pkce,
  postForm,
  postJson,
  signIn,
  uniqueEmail,
} from './support/auth-fixtures';

interface LoginBody {
  login: string;
  code?: string;
  mfaRequired?: boolean;
  memberships?: {
    id: string;
    profile?: { reference?: string; display?: string };
    project?: { display?: string };
  }[];
}

describe.each(databases())('auth endpoints on %s', (_engine, kind) => {
  let server: TestServer;
  let base: string;
  let project: Project;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    base = server.baseUrl;
    project = await createProject(server.db);
  });

  afterAll(async () => {
    await server.close();
  });

  describe('POST auth/method', () => {
    test('SPEC §7 an email whose domain has no identity provider gives {}', async () => {
      const response = await postJson(`${base}auth/method`, { email: 'someone@nowhere.example' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({});
    });

    test('SPEC §3 a domain with an external IdentityProvider gives domain and authorizeUrl', async () => {
      await new Repository(server.db, systemContext()).createResource<DomainConfiguration>({
        resourceType: 'DomainConfiguration',
        domain: 'hospital.example',
        identityProvider: {
          authorizeUrl: 'https://idp.hospital.example/authorize',
          tokenUrl: 'https://idp.hospital.example/token',
          userInfoUrl: 'https://idp.hospital.example/userinfo',
          clientId: 'bloom',
          clientSecret: 'secret',
        },
      });
      const response = await postJson(`${base}auth/method`, { email: 'Nurse@Hospital.Example' });
      // The app goes to this server's external authorize address, which goes on to the provider
      // (tests/server/auth/external.test.ts).
      expect(response.body).toEqual({
        domain: 'hospital.example',
        authorizeUrl: `${base}auth/external/authorize`,
      });
    });

    test.each([
      [{}, 'Email is required'],
      [{ email: 'not-an-email' }, 'Valid email address is required'],
      [{ email: 42 }, 'email must be a string'],
    ])('SPEC §5 bad email %j is a 400 on the email field', async (body, message) => {
      const response = await postJson(`${base}auth/method`, body);
      expect(response.status).toBe(400);
      expect(outcomeText(response.body)).toBe(message);
      expect(outcomeExpression(response.body)).toEqual(['email']);
    });
  });

  describe('POST auth/login', () => {
    test('SPEC §3 one membership: the login response carries a code that the token call exchanges', async () => {
      const user = await createUser(server.db);
      const membership = await addMembership(server.db, user, project, 'Patient');
      const tokens = await signIn(base, user.email as string);
      expect(tokens.token_type).toBe('Bearer');
      expect(tokens.expires_in).toBe(3600);
      expect(tokens.profile).toEqual(membership.profile);
      expect(tokens.project?.reference).toBe(`Project/${project.id}`);
      expect(tokens.refresh_token).toEqual(expect.any(String));
    });

    test('the email is matched case-insensitively', async () => {
      const user = await createUser(server.db);
      await addMembership(server.db, user, project, 'Practitioner');
      const tokens = await signIn(base, (user.email as string).toUpperCase());
      expect(tokens.access_token).toEqual(expect.any(String));
    });

    test('SPEC §7 a wrong password and an unknown email give the same message', async () => {
      const user = await createUser(server.db);
      await addMembership(server.db, user, project, 'Patient');
      const wrongPassword = await postJson(`${base}auth/login`, {
        email: user.email,
        password: 'not-the-password',
      });
      const unknownEmail = await postJson(`${base}auth/login`, {
        email: uniqueEmail('nobody'),
        password: PASSWORD,
      });
      expect(wrongPassword.status).toBe(400);
      expect(unknownEmail.status).toBe(400);
      expect(outcomeText(wrongPassword.body)).toBe('Email or password is invalid');
      expect(unknownEmail.body).toEqual(wrongPassword.body);
    });

    test('SPEC §5 missing email, malformed email, empty password, oversized field: precise 400s', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ password: PASSWORD }, 'Email is required', 'email'],
        [{ email: 'a@b', password: PASSWORD }, 'Valid email address is required', 'email'],
        [{ email: 'a@b.example', password: '' }, 'Password is required', 'password'],
        [
          { email: 'a@b.example', password: 'x'.repeat(2000) },
          'password must be at most 1024 characters',
          'password',
        ],
        [
          { email: 'a@b.example', password: PASSWORD, codeChallenge: 'abc', codeChallengeMethod: 'plain' },
          "codeChallengeMethod must be 'S256'",
          'codeChallengeMethod',
        ],
      ];
      for (const [body, message, field] of cases) {
        const response = await postJson(`${base}auth/login`, body);
        expect(response.status).toBe(400);
        expect(outcomeText(response.body)).toBe(message);
        expect(outcomeExpression(response.body)).toEqual([field]);
      }
      const notObject = await postJson(`${base}auth/login`, ['email']);
      expect(notObject.status).toBe(400);
    });

    test('SPEC §3 several memberships: the memberships list, then auth/profile gives the code', async () => {
      const user = await createUser(server.db);
      const other = await createProject(server.db, 'Second Clinic');
      const first = await addMembership(server.db, user, project, 'Patient');
      const second = await addMembership(server.db, user, other, 'Practitioner');
      const { verifier, challenge } = pkce();
      const login = await postJson<LoginBody>(`${base}auth/login`, {
        email: user.email,
        password: PASSWORD,
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
      });
      expect(login.status).toBe(200);
      expect(login.body.code).toBeUndefined();
      expect(login.body.memberships?.map((m) => m.id).sort()).toEqual([first.id, second.id].sort());
      expect(login.body.memberships?.find((m) => m.id === second.id)?.project?.display).toBe('Second Clinic');

      const again = await getJson<LoginBody>(`${base}auth/login/${login.body.login}`);
      expect(again.body.memberships).toHaveLength(2);

      const foreign = await postJson(`${base}auth/profile`, { login: login.body.login, profile: 'not-mine' });
      expect(foreign.status).toBe(400);
      expect(outcomeText(foreign.body)).toBe('Profile not found');

      const chosen = await postJson<LoginBody>(`${base}auth/profile`, {
        login: login.body.login,
        profile: second.id,
      });
      expect(chosen.body.code).toEqual(expect.any(String));
      const token = await postForm(`${base}oauth2/token`, {
        grant_type: 'authorization_code',
        code: chosen.body.code as string,
        code_verifier: verifier,
      });
      expect(token.status).toBe(200);
      expect(token.body.profile).toEqual(second.profile);

      const afterGrant = await getJson(`${base}auth/login/${login.body.login}`);
      expect(afterGrant.status).toBe(400);
      expect(outcomeText(afterGrant.body)).toBe('Login already granted');
    });

    test('projectId limits the memberships to that project; "new" leads to the project step', async () => {
      const user = await createUser(server.db);
      const other = await createProject(server.db, 'Third Clinic');
      await addMembership(server.db, user, project, 'Patient');
      const wanted = await addMembership(server.db, user, other, 'Patient');
      const scoped = await postJson<LoginBody>(`${base}auth/login`, {
        email: user.email,
        password: PASSWORD,
        projectId: other.id,
      });
      expect(scoped.body.code).toEqual(expect.any(String));
      const login = await new Repository(server.db, systemContext()).readResource('Login', scoped.body.login);
      expect((login as { membership?: { reference?: string } }).membership?.reference).toBe(
        `ProjectMembership/${wanted.id}`,
      );

      const fresh = await createUser(server.db);
      const projectStep = await postJson<LoginBody>(`${base}auth/login`, {
        email: fresh.email,
        password: PASSWORD,
        projectId: 'new',
      });
      expect(projectStep.body).toEqual({ login: expect.any(String) });
    });

    test('auth/scope sets the scope, auth/login/{login} of an unknown login is a 400', async () => {
      const user = await createUser(server.db);
      await addMembership(server.db, user, project, 'Patient');
      await addMembership(server.db, user, await createProject(server.db, 'Scope Clinic'), 'Patient');
      const login = await postJson<LoginBody>(`${base}auth/login`, { email: user.email, password: PASSWORD });
      const bad = await postJson(`${base}auth/scope`, { login: login.body.login, scope: 'openid  "bad"' });
      expect(bad.status).toBe(400);
      expect(outcomeExpression(bad.body)).toEqual(['scope']);
      const scoped = await postJson<LoginBody>(`${base}auth/scope`, {
        login: login.body.login,
        scope: 'openid patient/*.read',
      });
      expect(scoped.status).toBe(200);
      expect(scoped.body.memberships).toHaveLength(2);
      const unknown = await getJson(`${base}auth/login/00000000-0000-4000-8000-000000000000`);
      expect(unknown.status).toBe(400);
      expect(outcomeText(unknown.body)).toBe('Login not found');
    });
  });

  describe('registration', () => {
    async function register(body: Record<string, unknown>) {
      return postJson<LoginBody>(`${base}auth/newuser`, {
        firstName: 'Nora',
        lastName: 'Quinn',
        email: uniqueEmail('nora'),
        password: PASSWORD,
        ...body,
      });
    }

    test('SPEC §4 patient registration: newuser, newpatient (Patient + membership with the patient policy), code', async () => {
      const { verifier, challenge } = pkce();
      const email = uniqueEmail('patient');
      const created = await register({ email, codeChallenge: challenge, codeChallengeMethod: 'S256' });
      expect(created.status).toBe(200);
      expect(created.body).toEqual({ login: expect.any(String) });
      const patient = await postJson<LoginBody>(`${base}auth/newpatient`, {
        login: created.body.login,
        projectId: project.id,
      });
      expect(patient.status).toBe(200);
      expect(patient.body.code).toEqual(expect.any(String));
      const token = await postForm(`${base}oauth2/token`, {
        grant_type: 'authorization_code',
        code: patient.body.code as string,
        code_verifier: verifier,
      });
      expect(token.status).toBe(200);
      const me = await getJson<{
        profile: { resourceType: string; name: unknown };
        membership: ProjectMembership;
      }>(`${base}auth/me`, { authorization: `Bearer ${token.body.access_token as string}` });
      expect(me.status).toBe(200);
      expect(me.body.profile.resourceType).toBe('Patient');
      expect(me.body.profile.name).toEqual([{ given: ['Nora'], family: 'Quinn' }]);
      expect(me.body.membership.accessPolicy?.reference).toBe(project.defaultPatientAccessPolicy?.reference);
    });

    test('SPEC §5 newuser field errors name their field; a taken email is refused', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ firstName: '' }, 'First name is required', 'firstName'],
        [{ lastName: ' ' }, 'Last name is required', 'lastName'],
        [{ email: 'bad' }, 'Valid email address is required', 'email'],
        [{ password: 'short' }, 'Password must be at least 8 characters', 'password'],
        [
          { password: 'password123' },
          'Password is too common: choose one that is harder to guess',
          'password',
        ],
        [{ password: 'é'.repeat(40) }, 'Password must be at most 72 bytes', 'password'],
        [{ firstName: 'x'.repeat(300) }, 'firstName must be at most 128 characters', 'firstName'],
      ];
      for (const [body, message, field] of cases) {
        const response = await register(body);
        expect(response.status).toBe(400);
        expect(outcomeText(response.body)).toBe(message);
        expect(outcomeExpression(response.body)).toEqual([field]);
      }
      const user = await createUser(server.db);
      const taken = await register({ email: (user.email as string).toUpperCase() });
      expect(taken.status).toBe(400);
      expect(outcomeText(taken.body)).toBe('Email already registered');
      expect(outcomeExpression(taken.body)).toEqual(['email']);
    });

    test('a failed registration leaves no orphan User', async () => {
      const email = uniqueEmail('orphan');
      const failed = await register({ email, password: '123456789' });
      expect(failed.status).toBe(400);
      expect(await findUserByEmail(server.db, email)).toBeUndefined();
    });

    test('two concurrent registrations of one email create one User', async () => {
      const email = uniqueEmail('twice');
      const results = await Promise.all([register({ email }), register({ email })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      const { rows } = await server.db.query(
        "SELECT 1 FROM resource WHERE resource_type = 'User' AND lower(content->>'email') = lower($1)",
        [email],
      );
      expect(rows).toHaveLength(1);
    });

    test('newpatient refuses a closed project and an unknown one, creating nothing', async () => {
      const created = await register({});
      const closed = await new Repository(server.db, systemContext()).createResource<Project>({
        resourceType: 'Project',
        name: 'Closed',
      });
      const refused = await postJson(`${base}auth/newpatient`, {
        login: created.body.login,
        projectId: closed.id,
      });
      expect(refused.status).toBe(400);
      expect(outcomeText(refused.body)).toBe('This project does not allow patient registration');
      expect(outcomeExpression(refused.body)).toEqual(['projectId']);
      const unknown = await postJson(`${base}auth/newpatient`, {
        login: created.body.login,
        projectId: 'nope',
      });
      expect(outcomeText(unknown.body)).toBe('Project not found');
      const login = await new Repository(server.db, systemContext()).readResource<Login>(
        'Login',
        created.body.login,
      );
      const { rows } = await server.db.query(
        "SELECT 1 FROM resource WHERE resource_type = 'ProjectMembership' AND content->'user'->>'reference' = $1",
        [login.user.reference as string],
      );
      expect(rows).toHaveLength(0);
    });

    test('SPEC §4 project registration: newproject creates Project, Practitioner and an admin membership', async () => {
      const { verifier, challenge } = pkce();
      const created = await register({ codeChallenge: challenge, codeChallengeMethod: 'S256' });
      const missing = await postJson(`${base}auth/newproject`, {
        login: created.body.login,
        projectName: ' ',
      });
      expect(missing.status).toBe(400);
      expect(outcomeText(missing.body)).toBe('Project name is required');
      // SPEC §5: the app shows project name errors in the firstName slot.
      expect(outcomeExpression(missing.body)).toEqual(['projectName', 'firstName']);
      const made = await postJson<LoginBody>(`${base}auth/newproject`, {
        login: created.body.login,
        projectName: 'Nora Birth Center',
      });
      expect(made.status).toBe(200);
      const token = await postForm(`${base}oauth2/token`, {
        grant_type: 'authorization_code',
        code: made.body.code as string,
        code_verifier: verifier,
      });
      const me = await getJson<{
        project: Project;
        membership: ProjectMembership;
        profile: { resourceType: string };
        user: Partial<User>;
      }>(`${base}auth/me`, { authorization: `Bearer ${token.body.access_token as string}` });
      expect(me.body.project.name).toBe('Nora Birth Center');
      expect(me.body.project.superAdmin).toBeUndefined();
      expect(me.body.membership.admin).toBe(true);
      expect(me.body.profile.resourceType).toBe('Practitioner');
      expect(me.body.user.email).toEqual(expect.any(String));
      expect(me.body.user).not.toHaveProperty('passwordHash');
    });
  });

  describe('GET auth/me and POST auth/changepassword', () => {
    test('SPEC §3 session details: profile, project, membership, config, accessPolicy — never secrets', async () => {
      const user = await createUser(server.db);
      await addMembership(server.db, user, project, 'Patient');
      const tokens = await signIn(base, user.email as string);
      const me = await getJson<Record<string, Record<string, unknown>>>(`${base}auth/me`, {
        authorization: `Bearer ${tokens.access_token}`,
      });
      expect(me.status).toBe(200);
      expect(Object.keys(me.body).sort()).toEqual([
        'accessPolicy',
        'config',
        'membership',
        'profile',
        'project',
        'user',
      ]);
      expect(me.body.accessPolicy.resourceType).toBe('AccessPolicy');
      expect(me.body.config.resourceType).toBe('UserConfiguration');
      expect(JSON.stringify(me.body)).not.toMatch(/passwordHash|refreshSecret|"secret"/);
    });

    test('auth/me without a token, or with a garbage one, is a 401 Unauthenticated', async () => {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer nope' },
        { authorization: 'Basic Zm9vOmJhcg==' },
      ];
      for (const headers of attempts) {
        const response = await getJson(`${base}auth/me`, headers);
        expect(response.status).toBe(401);
        expect(outcomeText(response.body)).toBe('Unauthenticated');
      }
    });

    test('changepassword checks the old password and the new one, then the new one signs in', async () => {
      const user = await createUser(server.db);
      await addMembership(server.db, user, project, 'Patient');
      const tokens = await signIn(base, user.email as string);
      const auth = { authorization: `Bearer ${tokens.access_token}` };
      const wrongOld = await postJson(
        `${base}auth/changepassword`,
        { oldPassword: 'nope-nope', newPassword: 'Fresh-Meadow-42' },
        auth,
      );
      expect(wrongOld.status).toBe(400);
      expect(outcomeExpression(wrongOld.body)).toEqual(['oldPassword']);
      const common = await postJson(
        `${base}auth/changepassword`,
        { oldPassword: PASSWORD, newPassword: 'qwertyuiop' },
        auth,
      );
      expect(outcomeExpression(common.body)).toEqual(['newPassword']);
      const anonymous = await postJson(`${base}auth/changepassword`, {
        oldPassword: PASSWORD,
        newPassword: 'Fresh-Meadow-42',
      });
      expect(anonymous.status).toBe(401);
      const changed = await postJson(
        `${base}auth/changepassword`,
        { oldPassword: PASSWORD, newPassword: 'Fresh-Meadow-42' },
        auth,
      );
      expect(changed.status).toBe(200);
      await expect(signIn(base, user.email as string)).rejects.toThrow(/Email or password is invalid/);
      expect((await signIn(base, user.email as string, 'Fresh-Meadow-42')).access_token).toEqual(
        expect.any(String),
      );
    });
  });
});
