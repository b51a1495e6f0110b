// reCAPTCHA on registration over real HTTP (SPEC §2 registration, §7 auth/newuser): with a
// secret configured, auth/newuser asks a verifier (here on loopback, in Google's siteverify shape)
// before anything is created; missing or refused tokens are 400s that leave no User behind.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { findUserByEmail } from '../../../src/server/repo/lookups';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import {
  outcomeExpression,
  outcomeText,
  PASSWORD,
  pkce,
  postJson,
  uniqueEmail,
} from './support/auth-fixtures';

const SECRET = 'test-recaptcha-secret';
const SITE_KEY = 'test-recaptcha-site-key';
const GOOD_TOKEN = 'token-a-person-earned';

interface VerifierCall {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}

/** Google's siteverify, as far as Bloom uses it: success for GOOD_TOKEN and the right secret. */
async function startVerifier(): Promise<{ url: string; calls: VerifierCall[]; close(): Promise<void> }> {
  const calls: VerifierCall[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const call = {
        secret: form.get('secret'),
        response: form.get('response'),
        remoteip: form.get('remoteip'),
      };
      calls.push(call);
      const success = call.secret === SECRET && call.response === GOOD_TOKEN;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          success
            ? { success: true, score: 0.9 }
            : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function registration(email: string, extra: Record<string, unknown> = {}) {
  return {
    firstName: 'Rae',
    lastName: 'Captcha',
    email,
    password: PASSWORD,
    codeChallenge: pkce().challenge,
    codeChallengeMethod: 'S256',
    ...extra,
  };
}

describe.each(databases())('reCAPTCHA on auth/newuser on %s', (_engine, kind) => {
  let server: TestServer;
  let verifier: Awaited<ReturnType<typeof startVerifier>>;

  beforeAll(async () => {
    verifier = await startVerifier();
    server = await startTestServer(kind, {
      RECAPTCHA_SECRET_KEY: SECRET,
      RECAPTCHA_SITE_KEY: SITE_KEY,
      RECAPTCHA_VERIFY_URL: verifier.url,
    });
  });

  afterAll(async () => {
    await server?.close();
    await verifier?.close();
  });

  test('a token the verifier accepts registers the user; the verifier got our secret and the token', async () => {
    const email = uniqueEmail('captcha');
    const before = verifier.calls.length;
    const response = await postJson(
      `${server.baseUrl}auth/newuser`,
      registration(email, { recaptchaSiteKey: SITE_KEY, recaptchaToken: GOOD_TOKEN }),
    );
    expect(response.status).toBe(200);
    expect(response.body.login).toEqual(expect.any(String));
    expect(verifier.calls.slice(before)).toEqual([
      { secret: SECRET, response: GOOD_TOKEN, remoteip: expect.stringMatching(/127\.0\.0\.1|::1/) },
    ]);
    expect(await findUserByEmail(server.db, email)).toBeDefined();
  });

  test.each([
    ['a refused token', { recaptchaToken: 'bot-token' }, 'Recaptcha failed', true],
    ['no token', {}, 'Recaptcha token is required', false],
    ['an empty token', { recaptchaToken: '' }, 'Recaptcha token is required', false],
  ])('%s: 400 on recaptchaToken and no User created', async (_name, extra, message, asked) => {
    const email = uniqueEmail('bot');
    const before = verifier.calls.length;
    const response = await postJson(`${server.baseUrl}auth/newuser`, registration(email, extra));
    expect(response.status).toBe(400);
    expect(outcomeText(response.body)).toBe(message);
    expect(outcomeExpression(response.body)).toEqual(['recaptchaToken']);
    expect(verifier.calls.length - before).toBe(asked ? 1 : 0);
    expect(await findUserByEmail(server.db, email)).toBeUndefined();
  });

  test('another site key than the configured one is refused before asking the verifier', async () => {
    const email = uniqueEmail('bot');
    const response = await postJson(
      `${server.baseUrl}auth/newuser`,
      registration(email, { recaptchaSiteKey: 'someone-elses-key', recaptchaToken: GOOD_TOKEN }),
    );
    expect(response.status).toBe(400);
    expect(outcomeText(response.body)).toBe('Invalid recaptchaSiteKey');
    expect(await findUserByEmail(server.db, email)).toBeUndefined();
  });

  test('a verifier that cannot be reached refuses the registration', async () => {
    const unreachable = await startTestServer(kind, {
      RECAPTCHA_SECRET_KEY: SECRET,
      RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:1/siteverify',
    });
    try {
      const email = uniqueEmail('bot');
      const response = await postJson(
        `${unreachable.baseUrl}auth/newuser`,
        registration(email, { recaptchaToken: GOOD_TOKEN }),
      );
      expect(response.status).toBe(400);
      expect(outcomeText(response.body)).toBe('Recaptcha could not be verified: try again later');
      expect(await findUserByEmail(unreachable.db, email)).toBeUndefined();
    } finally {
      await unreachable.close();
    }
  });
});

describe.each(databases())('without a reCAPTCHA secret on %s', (_engine, kind) => {
  test('registration needs no token', async () => {
    const server = await startTestServer(kind);
    try {
      const response = await postJson(`${server.baseUrl}auth/newuser`, registration(uniqueEmail('open')));
      expect(response.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
