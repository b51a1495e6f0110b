// Credential changes end what they should: a new password (change or reset link) ends every sign-in
// of the user from before it (access tokens, refresh tokens, authorization codes) and every other
// outstanding reset link; disabling MFA needs a current code and the current password or a fresh
// sign-in. The changed flows are also driven with Medplum's own MedplumClient (@medplum/core
// 5.2.13, unchanged). Real HTTP, PGlite and PostgreSQL. SPEC §7 (Authentication).
import type { Login } from '@medplum/fhirtypes';
import { Secret, TOTP } from 'otpauth';
import { RECENT_AUTH_REQUIRED } from '../../../src/server/auth/recent-auth';
import { Repository, systemContext } from '../../../src/server/repo';
import {
  medplumClient,
  outcomeOf,
  rejectionOf,
  signedInClient,
} from '../../conformance/medplum-sdk/support/medplum-client';
import { databases } from '../support/test-databases';
import { startTestServerInTempDir, outboxEmails } from '../support/test-server';
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
  setPasswordLink,
} from './support/auth-fixtures';
import type { Tokens } from './support/auth-fixtures';

const NEW_PASSWORD = 'Quiet-Meadow-Lantern-7';

describe.each(databases())('credential changes end what they should on %s', (_engine, kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServerInTempDir(kind, { requireAuth: true });
  });

  afterAll(async () => {
    await server.close();
  });

  async function account(): Promise<string> {
    const project = await createProject(server.db);
    const user = await createUser(server.db);
    await addMembership(server.db, user, project, 'Patient');
    return user.email as string;
  }

  /** A password sign-in stopped at its authorization code (not exchanged yet). */
  async function pendingCode(email: string): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = pkce();
    const login = await postJson<{ code: string }>(`${server.baseUrl}auth/login`, {
      email,
      password: PASSWORD,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    return { code: login.body.code, verifier };
  }

  /** Every credential of the sign-ins from before the change fails. */
  async function expectAllRevoked(
    tokens: Tokens,
    pending: { code: string; verifier: string },
  ): Promise<void> {
    const me = await getJson(`${server.baseUrl}auth/me`, { authorization: `Bearer ${tokens.access_token}` });
    expect(me.status).toBe(401);
    const fhir = await getJson(`${server.fhirUrl}Patient`, {
      authorization: `Bearer ${tokens.access_token}`,
    });
    expect(fhir.status).toBe(401);
    const refreshed = await postForm(`${server.baseUrl}oauth2/token`, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token as string,
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body).toMatchObject({
      error: 'invalid_grant',
      error_description: 'Refresh token revoked',
    });
    const exchanged = await postForm(`${server.baseUrl}oauth2/token`, {
      grant_type: 'authorization_code',
      code: pending.code,
      code_verifier: pending.verifier,
    });
    expect(exchanged.status).toBe(400);
    expect(exchanged.body).toMatchObject({
      error: 'invalid_grant',
      error_description: 'Authorization code revoked',
    });
  }

  function resetLinks(email: string): { id: string; secret: string }[] {
    return outboxEmails(server)
      .filter((text) => text.includes(`To: ${email}`))
      .map(setPasswordLink);
  }

  test("auth/changepassword through MedplumClient ends every earlier sign-in, the changer's too", async () => {
    const email = await account();
    const other = await signIn(server.baseUrl, email);
    const pending = await pendingCode(email);
    const medplum = await signedInClient(server.baseUrl, await signIn(server.baseUrl, email));
    await expect(medplum.get('auth/me')).resolves.toMatchObject({ user: { email } });

    const wrongOld = await rejectionOf(
      medplum.post('auth/changepassword', { oldPassword: 'not-it-at-all', newPassword: NEW_PASSWORD }),
    );
    expect(outcomeOf(wrongOld)[0]).toMatchObject({ text: 'Incorrect password', expression: ['oldPassword'] });
    await expect(
      medplum.post('auth/changepassword', { oldPassword: PASSWORD, newPassword: NEW_PASSWORD }),
    ).resolves.toEqual({});

    await expectAllRevoked(other, pending);
    // The SDK's own session is over too: its refresh is refused, so the call fails.
    await rejectionOf(medplum.get('auth/me', { cache: 'no-cache' }));
    await expect(signIn(server.baseUrl, email)).rejects.toThrow(/Email or password is invalid/);
    // A new sign-in with the new password, through the SDK's startLogin, works.
    const fresh = await medplumClient(server.baseUrl);
    const { verifier, challenge } = pkce();
    const started = (await fresh.startLogin({
      email,
      password: NEW_PASSWORD,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    })) as { code: string };
    const tokens = await postForm<Tokens>(`${server.baseUrl}oauth2/token`, {
      grant_type: 'authorization_code',
      code: started.code,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
  });

  test('a reset link ends every earlier sign-in and every other outstanding link', async () => {
    const email = await account();
    await postJson(`${server.baseUrl}auth/resetpassword`, { email });
    await postJson(`${server.baseUrl}auth/resetpassword`, { email });
    const [older, newer] = resetLinks(email);
    const session = await signIn(server.baseUrl, email);
    const pending = await pendingCode(email);

    const used = await postJson(`${server.baseUrl}auth/setpassword`, { ...newer, password: NEW_PASSWORD });
    expect(used.status).toBe(200);
    await expectAllRevoked(session, pending);

    const stale = await postJson(`${server.baseUrl}auth/setpassword`, {
      ...older,
      password: 'Other-Stone-Field-8',
    });
    expect(stale.status).toBe(400);
    expect(outcomeText(stale.body)).toBe('This password reset link is invalid or has expired');
    await expect(signIn(server.baseUrl, email)).rejects.toThrow(/Email or password is invalid/);
    expect((await signIn(server.baseUrl, email, NEW_PASSWORD)).access_token).toEqual(expect.any(String));
    // A link asked for after the change works.
    await postJson(`${server.baseUrl}auth/resetpassword`, { email });
    const latest = resetLinks(email).at(-1) as { id: string; secret: string };
    expect(
      (await postJson(`${server.baseUrl}auth/setpassword`, { ...latest, password: 'Third-Cedar-Path-3' }))
        .status,
    ).toBe(200);
  });

  describe('disabling MFA', () => {
    function totp(secret: string): TOTP {
      return new TOTP({ secret: Secret.fromBase32(secret) });
    }

    async function enrolled(): Promise<{ email: string; tokens: Tokens; secret: string }> {
      const email = await account();
      const tokens = await signIn(server.baseUrl, email);
      const auth = { authorization: `Bearer ${tokens.access_token}` };
      const status = await getJson<{ secret: string }>(`${server.baseUrl}auth/mfa/status`, auth);
      const secret = status.body.secret;
      await postJson(`${server.baseUrl}auth/mfa/enroll`, { token: totp(secret).generate() }, auth);
      return { email, tokens, secret };
    }

    /** Makes the session's sign-in older than "fresh" (as if it began 10 minutes ago). */
    async function age(tokens: Tokens): Promise<void> {
      const payload = JSON.parse(Buffer.from(tokens.access_token.split('.')[1], 'base64url').toString()) as {
        login_id: string;
      };
      const repo = new Repository(server.db, systemContext());
      const login = await repo.readResource<Login>('Login', payload.login_id);
      await repo.updateResource<Login>({
        ...login,
        authTime: new Date(Date.now() - 10 * 60_000).toISOString(),
      });
    }

    test('an older session needs the current password (and a current code); the old password then fails', async () => {
      const { tokens, secret } = await enrolled();
      await age(tokens);
      const auth = { authorization: `Bearer ${tokens.access_token}` };
      const next = totp(secret).generate({ timestamp: Date.now() + 30_000 });
      const noPassword = await postJson(`${server.baseUrl}auth/mfa/disable`, { token: next }, auth);
      expect(noPassword.status).toBe(400);
      expect(outcomeText(noPassword.body)).toBe(RECENT_AUTH_REQUIRED);
      expect(outcomeExpression(noPassword.body)).toEqual(['password']);
      const wrong = await postJson(
        `${server.baseUrl}auth/mfa/disable`,
        { token: next, password: 'old-guess-12' },
        auth,
      );
      expect(outcomeText(wrong.body)).toBe('Incorrect password');
      const done = await postJson(
        `${server.baseUrl}auth/mfa/disable`,
        { token: next, password: PASSWORD },
        auth,
      );
      expect(done.status).toBe(200);
      const status = await getJson<{ enrolled: boolean; secret: string }>(
        `${server.baseUrl}auth/mfa/status`,
        auth,
      );
      expect(status.body.enrolled).toBe(false);
      // A new secret: the old authenticator's codes are worth nothing at the next enrolment.
      expect(status.body.secret).not.toBe(secret);
    });

    test('a fresh sign-in may disable with a current code alone; without one it may not', async () => {
      const { tokens, secret } = await enrolled();
      const auth = { authorization: `Bearer ${tokens.access_token}` };
      const missing = await postJson(`${server.baseUrl}auth/mfa/disable`, {}, auth);
      expect(outcomeText(missing.body)).toBe('MFA code is required');
      const next = totp(secret).generate({ timestamp: Date.now() + 30_000 });
      expect((await postJson(`${server.baseUrl}auth/mfa/disable`, { token: next }, auth)).status).toBe(200);
      expect((await postJson(`${server.baseUrl}auth/mfa/disable`, { token: next })).status).toBe(401);
    });
  });
});
