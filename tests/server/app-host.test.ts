// The app host over real HTTP: static files, SPA fallback, /config.json, security headers
// (SPEC §2 routes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildAppHost } from '../../src/server/app-host';
import { findTestPort } from '../support/test-port';

describe('app host', () => {
  let appDir: string;
  let host: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-app-'));
    fs.writeFileSync(
      path.join(appDir, 'index.html'),
      '<!doctype html><title>Bloom</title><div id="root"></div>',
    );
    fs.mkdirSync(path.join(appDir, 'assets'));
    fs.writeFileSync(path.join(appDir, 'assets', 'main-abc123.js'), 'console.log("bloom")');
    host = await buildAppHost({ appDir, apiBaseUrl: 'http://localhost:8999/', logLevel: 'silent' });
    const port = await findTestPort('localhost');
    await host.listen({ port, host: 'localhost' });
    url = `http://localhost:${port}`;
  });

  afterAll(async () => {
    await host.close();
    fs.rmSync(appDir, { recursive: true, force: true });
  });

  test('GET /config.json tells the app where the API is', async () => {
    const response = await fetch(`${url}/config.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ baseUrl: 'http://localhost:8999/' });
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  test('GET /config.json names the project patients register into, when there is one (issue #3)', async () => {
    const withProject = await buildAppHost({
      appDir,
      apiBaseUrl: 'http://localhost:8999/',
      registrationProjectId: 'clinic-project',
      logLevel: 'silent',
    });
    try {
      const response = await withProject.inject({ method: 'GET', url: '/config.json' });
      expect(response.json()).toEqual({ baseUrl: 'http://localhost:8999/', projectId: 'clinic-project' });
    } finally {
      await withProject.close();
    }
  });

  test('serves the index and built assets', async () => {
    const index = await fetch(`${url}/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<title>Bloom</title>');
    const asset = await fetch(`${url}/assets/main-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
  });

  test('SPA fallback: an unknown client route gets index.html, an unknown file is 404', async () => {
    const route = await fetch(`${url}/health-record/vitals?x=1`);
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<div id="root">');
    expect(route.headers.get('cache-control')).toBe('no-cache');
    const missingFile = await fetch(`${url}/assets/missing-999.js`);
    expect(missingFile.status).toBe(404);
    const post = await fetch(`${url}/signin`, { method: 'POST' });
    expect(post.status).toBe(404);
  });

  test('security headers: strict CSP (no inline script), nosniff, frame options, referrer policy', async () => {
    const response = await fetch(`${url}/`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("connect-src 'self' http://localhost:8999 ws://localhost:8999");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  test('refuses to start without a built app, with a message saying how to build it', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-empty-'));
    await expect(
      buildAppHost({ appDir: empty, apiBaseUrl: 'http://localhost:1/', logLevel: 'silent' }),
    ).rejects.toThrow(/npm run build/);
    fs.rmSync(empty, { recursive: true, force: true });
  });
});
