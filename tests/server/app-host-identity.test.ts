// The app host's identity settings: /config.json names the seeded 'Bloom app'
// ClientApplication as clientId and the reCAPTCHA site key, and the CSP lets Google's reCAPTCHA in only
// when a site key is configured. The clientId comes from the demo clinic's seed (findAppClientId).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClientApplication } from '@medplum/fhirtypes';
import { buildAppHost } from '../../src/server/app-host';
import { Repository, systemContext } from '../../src/server/repo';
import { findAppClientId, seedDemoClinic } from '../../src/server/seed';
import { openTestPGlite } from './support/test-databases';

let appDir: string;

beforeAll(() => {
  appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-app-identity-'));
  fs.writeFileSync(path.join(appDir, 'index.html'), '<!doctype html><title>Bloom</title>');
});

afterAll(() => fs.rmSync(appDir, { recursive: true, force: true }));

async function host(options: { clientId?: string; recaptchaSiteKey?: string } = {}) {
  return buildAppHost({ appDir, apiBaseUrl: 'http://localhost:8999/', logLevel: 'silent', ...options });
}

describe('/config.json', () => {
  test('carries clientId and recaptchaSiteKey when given, and neither when not', async () => {
    const configured = await host({ clientId: 'bloom-app-client', recaptchaSiteKey: 'site-key-1' });
    const plain = await host();
    try {
      expect((await configured.inject({ url: '/config.json' })).json()).toEqual({
        baseUrl: 'http://localhost:8999/',
        clientId: 'bloom-app-client',
        recaptchaSiteKey: 'site-key-1',
      });
      expect((await plain.inject({ url: '/config.json' })).json()).toEqual({
        baseUrl: 'http://localhost:8999/',
      });
    } finally {
      await configured.close();
      await plain.close();
    }
  });
});

describe('Content-Security-Policy and reCAPTCHA', () => {
  test("with a site key: Google's reCAPTCHA script and frames are allowed, nothing else of Google's", async () => {
    const app = await host({ recaptchaSiteKey: 'site-key-1' });
    try {
      const csp = (await app.inject({ url: '/' })).headers['content-security-policy'] as string;
      expect(csp).toContain(
        "script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/;",
      );
      expect(csp).toMatch(
        /frame-src [^;]*https:\/\/www\.google\.com\/recaptcha\/ https:\/\/recaptcha\.google\.com\/recaptcha\//,
      );
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    } finally {
      await app.close();
    }
  });

  test('without a site key: no Google source at all', async () => {
    const app = await host();
    try {
      const csp = (await app.inject({ url: '/' })).headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toContain('google');
      expect(csp).not.toContain('gstatic');
    } finally {
      await app.close();
    }
  });
});

describe('findAppClientId (the clientId npm start gives /config.json)', () => {
  test("finds the demo clinic's seeded 'Bloom app' client, also after a second (no-op) seed; none elsewhere", async () => {
    const db = await openTestPGlite();
    try {
      const repo = new Repository(db, systemContext());
      const first = await seedDemoClinic(repo, { appOrigins: ['http://localhost:3000'] });
      const clientId = await findAppClientId(db, first.projectId);
      const client = await repo.readResource<ClientApplication>('ClientApplication', clientId as string);
      expect(client.name).toBe('Bloom app');
      expect(client.redirectUris).toEqual(['http://localhost:3000/signin']);
      const second = await seedDemoClinic(repo);
      expect(second.seeded).toBe(false);
      expect(await findAppClientId(db, second.projectId)).toBe(clientId);
      expect(await findAppClientId(db, 'another-project')).toBeUndefined();
    } finally {
      await db.close();
    }
  });
});
