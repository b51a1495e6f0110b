// TOTP MFA (enrolment, the MFA step, throttled wrong codes, a code spent once), password reset by
// email (outbox file, or SMTP when configured). Password throttling: signin-lockout.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { UserSecurityRequest } from '@medplum/fhirtypes';
import { Secret, TOTP } from 'otpauth';
import { Repository, systemContext } from '../../../src/server/repo';
import { databases } from '../support/test-databases';
import { startTestServer, startTestServerInTempDir, outboxEmails } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { startFakeSmtp } from './support/fake-smtp';
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
  setPasswordLink,
} from './support/auth-fixtures';

async function accountIn(server: TestServer): Promise<string> {
  const project = await createProject(server.db);
  const user = await createUser(server.db);
  await addMembership(server.db, user, project, 'Patient');
  return user.email as string;
}

describe.each(databases())('throttling, MFA and password reset on %s', (_engine, kind) => {
  describe('MFA', () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer(kind, {}, { requireAuth: true });
    });

    afterAll(async () => {
      await server.close();
    });

    function totp(secret: string): TOTP {
      return new TOTP({ secret: Secret.fromBase32(secret) });
    }

    /** The code of the next 30 s step (accepted, one step of drift): enrolment spent this step's. */
    function nextCode(secret: string): string {
      return totp(secret).generate({ timestamp: Date.now() + 30_000 });
    }

    function wrongCode(secret: string): string {
      const now = Date.now();
      const right = [-30_000, 0, 30_000].map((shift) => totp(secret).generate({ timestamp: now + shift }));
      return ['000000', '111111', '222222', '333333'].find((code) => !right.includes(code)) as string;
    }

    async function enrol(email: string): Promise<string> {
      const tokens = await signIn(server.baseUrl, email);
      const auth = { authorization: `Bearer ${tokens.access_token}` };
      const status = await getJson<{ enrolled: boolean; secret: string; enrollUri: string }>(
        `${server.baseUrl}auth/mfa/status`,
        auth,
      );
      expect(status.body.enrolled).toBe(false);
      expect(status.body.enrollUri).toMatch(/^otpauth:\/\/totp\/Bloom:.+\?.*secret=/);
      const started = await postJson<{ secret: string }>(`${server.baseUrl}auth/mfa/enroll`, {}, auth);
      expect(started.body.secret).toBe(status.body.secret);
      const wrong = await postJson(
        `${server.baseUrl}auth/mfa/enroll`,
        { token: wrongCode(status.body.secret) },
        auth,
      );
      expect(wrong.status).toBe(400);
      expect(outcomeText(wrong.body)).toBe('Invalid MFA token');
      expect(outcomeExpression(wrong.body)).toEqual(['token']);
      const enrolled = await postJson(
        `${server.baseUrl}auth/mfa/enroll`,
        { token: totp(status.body.secret).generate() },
        auth,
      );
      expect(enrolled.body).toEqual({ enrolled: true });
      expect((await getJson(`${server.baseUrl}auth/mfa/status`, auth)).body).toEqual({ enrolled: true });
      return status.body.secret;
    }

    test('enrol with a TOTP, then sign in: mfaRequired, a wrong code refused, the right one gives a code', async () => {
      const email = await accountIn(server);
      const secret = await enrol(email);
      const { verifier, challenge } = pkce();
      const login = await postJson<{ login: string; mfaRequired?: boolean; code?: string }>(
        `${server.baseUrl}auth/login`,
        { email, password: PASSWORD, codeChallenge: challenge, codeChallengeMethod: 'S256' },
      );
      expect(login.body).toEqual({ login: expect.any(String), mfaRequired: true });
      const skip = await postJson(`${server.baseUrl}auth/profile`, { login: login.body.login, profile: 'x' });
      expect(outcomeText(skip.body)).toBe('MFA verification is required first');
      for (const [token, message] of [
        ['', 'MFA code is required'],
        ['12ab56', 'MFA code must be 6 digits'],
        [wrongCode(secret), 'Invalid MFA token'],
      ]) {
        const response = await postJson(`${server.baseUrl}auth/mfa/verify`, {
          login: login.body.login,
          token,
        });
        expect(response.status).toBe(400);
        expect(outcomeText(response.body)).toBe(message);
      }
      const verified = await postJson<{ code: string }>(`${server.baseUrl}auth/mfa/verify`, {
        login: login.body.login,
        token: nextCode(secret),
      });
      expect(verified.body.code).toEqual(expect.any(String));
      const tokens = await postForm(`${server.baseUrl}oauth2/token`, {
        grant_type: 'authorization_code',
        code: verified.body.code,
        code_verifier: verifier,
      });
      expect(tokens.status).toBe(200);
    });

    test('wrong MFA codes make this (user, address) wait, growing; a code signs in once only', async () => {
      const email = await accountIn(server);
      const secret = await enrol(email);
      const login = await postJson<{ login: string }>(`${server.baseUrl}auth/login`, {
        email,
        password: PASSWORD,
      });
      for (let i = 0; i < 6; i++) {
        const response = await postJson(`${server.baseUrl}auth/mfa/verify`, {
          login: login.body.login,
          token: wrongCode(secret),
        });
        expect(response.status).toBe(400);
      }
      const waiting = await postJson(`${server.baseUrl}auth/mfa/verify`, {
        login: login.body.login,
        token: totp(secret).generate(),
      });
      expect(waiting.status).toBe(429);
      expect(outcomeText(waiting.body)).toBe(
        'Too many failed MFA attempts for this account from your address; try again in 1 second',
      );
      expect(waiting.headers.get('retry-after')).toBe('1');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const code = nextCode(secret);
      const verified = await postJson<{ code?: string }>(`${server.baseUrl}auth/mfa/verify`, {
        login: login.body.login,
        token: code,
      });
      expect(verified.body.code).toEqual(expect.any(String));
      // The same code for a second sign-in within its 30 s step is refused.
      const second = await postJson<{ login: string }>(`${server.baseUrl}auth/login`, {
        email,
        password: PASSWORD,
      });
      const replay = await postJson(`${server.baseUrl}auth/mfa/verify`, {
        login: second.body.login,
        token: code,
      });
      expect(replay.status).toBe(400);
      expect(outcomeText(replay.body)).toBe('This MFA code was already used: wait for the next one');
      expect(outcomeExpression(replay.body)).toEqual(['token']);
    });

    test('the MFA step cannot be skipped through newproject or newpatient', async () => {
      const email = await accountIn(server);
      await enrol(email);
      const login = await postJson<{ login: string }>(`${server.baseUrl}auth/login`, {
        email,
        password: PASSWORD,
      });
      const project = await postJson(`${server.baseUrl}auth/newproject`, {
        login: login.body.login,
        projectName: 'Sneaky',
      });
      expect(project.status).toBe(400);
      expect(outcomeText(project.body)).toBe('MFA verification is required first');
      const open = await createProject(server.db, 'Open Clinic');
      const patient = await postJson(`${server.baseUrl}auth/newpatient`, {
        login: login.body.login,
        projectId: open.id,
      });
      expect(outcomeText(patient.body)).toBe('MFA verification is required first');
    });

    test('MFA enrolment needs a signed-in user', async () => {
      expect((await getJson(`${server.baseUrl}auth/mfa/status`)).status).toBe(401);
      expect((await postJson(`${server.baseUrl}auth/mfa/enroll`, {})).status).toBe(401);
    });
  });

  describe('password reset', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServerInTempDir(kind, { requireAuth: true });
    });

    afterAll(async () => {
      await server.close();
    });

    test('an unknown email gets the same {} and no email', async () => {
      const response = await postJson(`${server.baseUrl}auth/resetpassword`, { email: uniqueEmail('ghost') });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({});
      expect(outboxEmails(server)).toEqual([]);
      const bad = await postJson(`${server.baseUrl}auth/resetpassword`, { email: 'nope' });
      expect(outcomeExpression(bad.body)).toEqual(['email']);
    });

    test('the link in the outbox email sets a new password once; the old password stops working', async () => {
      const email = await accountIn(server);
      expect((await postJson(`${server.baseUrl}auth/resetpassword`, { email })).body).toEqual({});
      const mail = outboxEmails(server).find((text) => text.includes(`To: ${email}`)) as string;
      expect(mail).toContain('Subject: Reset your Bloom password');
      const { id, secret } = setPasswordLink(mail);
      expect(mail).toContain(`http://localhost:3000/setpassword/${id}/${secret}`);

      const wrongSecret = await postJson(`${server.baseUrl}auth/setpassword`, {
        id,
        secret: 'f'.repeat(64),
        password: 'Brand-New-Pass-9',
      });
      expect(outcomeText(wrongSecret.body)).toBe('This password reset link is invalid or has expired');
      const common = await postJson(`${server.baseUrl}auth/setpassword`, {
        id,
        secret,
        password: 'sunshine1',
      });
      expect(outcomeExpression(common.body)).toEqual(['password']);
      const done = await postJson(`${server.baseUrl}auth/setpassword`, {
        id,
        secret,
        password: 'Brand-New-Pass-9',
      });
      expect(done.status).toBe(200);
      const again = await postJson(`${server.baseUrl}auth/setpassword`, {
        id,
        secret,
        password: 'Other-New-Pass-9',
      });
      expect(again.status).toBe(400);
      await expect(signIn(server.baseUrl, email)).rejects.toThrow(/Email or password is invalid/);
      expect((await signIn(server.baseUrl, email, 'Brand-New-Pass-9')).access_token).toEqual(
        expect.any(String),
      );
    });

    test('an expired link is refused', async () => {
      const email = await accountIn(server);
      await postJson(`${server.baseUrl}auth/resetpassword`, { email });
      const mail = outboxEmails(server).find((text) => text.includes(`To: ${email}`)) as string;
      const { id, secret } = setPasswordLink(mail);
      const repo = new Repository(server.db, systemContext());
      const request = await repo.readResource<UserSecurityRequest>('UserSecurityRequest', id);
      await repo.updateResource({ ...request, expiresAt: new Date(Date.now() - 1000).toISOString() });
      const response = await postJson(`${server.baseUrl}auth/setpassword`, {
        id,
        secret,
        password: 'Brand-New-Pass-9',
      });
      expect(response.status).toBe(400);
      expect(outcomeText(response.body)).toBe('This password reset link is invalid or has expired');
    });
  });

  test('with SMTP_HOST set the reset email goes over SMTP', async () => {
    const smtp = await startFakeSmtp();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-smtp-'));
    const server = await startTestServer(
      kind,
      {
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtp.port),
        SMTP_FROM: 'Bloom <mail@bloom.example>',
        DATA_DIR: dataDir,
      },
      { requireAuth: true },
    );
    try {
      const email = await accountIn(server);
      await postJson(`${server.baseUrl}auth/resetpassword`, { email });
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].from).toContain('mail@bloom.example');
      expect(smtp.received[0].to[0].toLowerCase()).toContain(email.toLowerCase());
      expect(smtp.received[0].data).toMatch(/setpassword/);
      expect(fs.existsSync(path.join(dataDir, 'outbox'))).toBe(false);
    } finally {
      await server.close();
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
