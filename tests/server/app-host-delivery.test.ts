// The app host's delivery over real HTTP: the build's brotli/gzip copies chosen by Accept-Encoding
// with Vary, a year of immutable caching only for hashed assets, revalidation for index.html, the
// SPA fallback and /config.json (SPEC §2 routes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { appCacheControl, buildAppHost } from '../../src/server/app-host';
import { findTestPort } from '../support/test-port';
import { rawGet as get } from './support/raw-get';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SCRIPT = 'console.log("bloom, compressed");'.repeat(40);
const INDEX = '<!doctype html><title>Bloom</title><div id="root"></div>';
const MANIFEST = '{"name":"Bloom","start_url":"/","display":"standalone"}';

describe('app host delivery', () => {
  let appDir: string;
  let host: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-app-delivery-'));
    const write = (name: string, text: string) => {
      fs.writeFileSync(path.join(appDir, name), text);
      fs.writeFileSync(path.join(appDir, `${name}.br`), brotliCompressSync(text));
      fs.writeFileSync(path.join(appDir, `${name}.gz`), gzipSync(text));
    };
    fs.mkdirSync(path.join(appDir, 'assets'));
    write('index.html', INDEX);
    write('assets/main-Ab3_x-9Z.js', SCRIPT);
    write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    write('manifest.webmanifest', MANIFEST);
    write('sw.js', 'self.addEventListener("fetch", () => undefined);');
    // A text file the build left without copies is still served, uncompressed.
    fs.writeFileSync(path.join(appDir, 'assets', 'plain-Qw12Er34.css'), 'body{margin:0}');
    host = await buildAppHost({ appDir, apiBaseUrl: 'http://localhost:8999/', logLevel: 'silent' });
    const port = await findTestPort('localhost');
    await host.listen({ port, host: 'localhost' });
    url = `http://localhost:${port}`;
  });

  afterAll(async () => {
    await host.close();
    fs.rmSync(appDir, { recursive: true, force: true });
  });

  test('a hashed script comes as brotli when accepted, with Vary and a year of immutable caching', async () => {
    const response = await get(`${url}/assets/main-Ab3_x-9Z.js`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(brotliDecompressSync(response.body).toString()).toBe(SCRIPT);
    expect(response.body.length).toBeLessThan(SCRIPT.length / 4);
    // Never revalidated and read whole: no validators, no range support.
    for (const name of ['etag', 'last-modified', 'accept-ranges'])
      expect(response.headers).not.toHaveProperty(name);
  });

  test('gzip when the browser accepts only gzip; the plain file when it accepts none', async () => {
    const gzip = await get(`${url}/assets/main-Ab3_x-9Z.js`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(SCRIPT);
    const plain = await get(`${url}/assets/main-Ab3_x-9Z.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.toString()).toBe(SCRIPT);
    const refused = await get(`${url}/assets/main-Ab3_x-9Z.js`, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.toString()).toBe(SCRIPT);
  });

  test('a file without copies is served as it is, still immutable when hashed', async () => {
    const response = await get(`${url}/assets/plain-Qw12Er34.css`, { 'accept-encoding': 'br, gzip' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.toString()).toBe('body{margin:0}');
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
  });

  test('index.html and the SPA fallback come compressed and must be revalidated (no-cache)', async () => {
    for (const page of ['/', '/index.html', '/health-record/vitals?x=1']) {
      const response = await get(`${url}${page}`, { 'accept-encoding': 'br' });
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(response.body).toString()).toBe(INDEX);
      // Revalidated: it keeps its validators.
      expect(response.headers.etag).toBeDefined();
      expect(response.headers['last-modified']).toBeDefined();
    }
  });

  test('files without a content hash in their name (icons) and /config.json are revalidated, never immutable', async () => {
    const icon = await get(`${url}/favicon.svg`, { 'accept-encoding': 'gzip' });
    expect(icon.headers['content-encoding']).toBe('gzip');
    expect(icon.headers['cache-control']).toBe('no-cache');
    const config = await get(`${url}/config.json`);
    expect(config.headers['cache-control']).toBe('no-cache');
  });

  test('scripts and style sheets carry no document-only headers (CSP, frame options); pages keep them all', async () => {
    const documentOnly = [
      'content-security-policy',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
    ];
    for (const [file, encoding] of [
      ['/assets/main-Ab3_x-9Z.js', 'br'],
      ['/assets/main-Ab3_x-9Z.js', 'gzip'],
      ['/assets/main-Ab3_x-9Z.js', 'identity'],
      ['/assets/plain-Qw12Er34.css', 'br'],
    ]) {
      const asset = await get(`${url}${file}`, { 'accept-encoding': encoding });
      expect(asset.status).toBe(200);
      for (const name of documentOnly)
        expect([file, encoding, name, asset.headers[name]]).toEqual([file, encoding, name, undefined]);
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
      expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
    for (const page of ['/', '/index.html', '/messages', '/favicon.svg']) {
      const response = await get(`${url}${page}`, { 'accept-encoding': 'br' });
      for (const name of documentOnly)
        expect([page, name, response.headers[name]]).not.toEqual([page, name, undefined]);
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  test('the web app manifest comes as application/manifest+json and the service worker as a script, both revalidated', async () => {
    for (const encoding of ['br', 'identity']) {
      const manifest = await get(`${url}/manifest.webmanifest`, { 'accept-encoding': encoding });
      expect(manifest.status).toBe(200);
      expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
      expect(manifest.headers['cache-control']).toBe('no-cache');
      const worker = await get(`${url}/sw.js`, { 'accept-encoding': encoding });
      expect(worker.status).toBe(200);
      expect(worker.headers['content-type']).toMatch(/javascript/);
      // A browser checks for a new worker on each visit: it must never be kept for a year.
      expect(worker.headers['cache-control']).toBe('no-cache');
      // A worker runs under its own response's policy, so sw.js keeps the CSP the pages have.
      expect(worker.headers['content-security-policy']).toContain("script-src 'self'");
    }
    expect(appCacheControl('/srv/app/sw.js')).toBe('no-cache');
    expect(appCacheControl('/srv/app/manifest.webmanifest')).toBe('no-cache');
  });

  test('the compressed copies are never reachable by a crafted path outside the app', async () => {
    const response = await get(`${url}/assets/..%2f..%2fetc%2fpasswd`, { 'accept-encoding': 'br' });
    expect([403, 404]).toContain(response.status);
  });

  test('appCacheControl: immutable only for name-HASH files under assets/', () => {
    expect(appCacheControl('/srv/app/assets/index-lEFyuLxs.js')).toBe(IMMUTABLE);
    expect(appCacheControl('/srv/app/assets/AlertTitle-DS-6kvkf.js.br')).toBe(IMMUTABLE);
    expect(appCacheControl('/srv/app/assets/index-lEFyuLxs.js.map')).toBe(IMMUTABLE);
    expect(appCacheControl('/srv/app/index.html')).toBe('no-cache');
    expect(appCacheControl('/srv/app/favicon.svg')).toBe('no-cache');
    expect(appCacheControl('/srv/app/assets/logo.svg')).toBe('no-cache');
  });
});

describe('the built app (dist/app, as npm run build writes it)', () => {
  const dist = path.resolve('dist/app');
  const textFiles = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return textFiles(file);
      return /\.(js|mjs|css|html|json|svg|map|txt|xml|webmanifest)$/.test(entry.name) ? [file] : [];
    });

  test('every text file has brotli and gzip copies holding the same bytes', () => {
    const files = textFiles(dist);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const original = fs.readFileSync(file);
      expect(brotliDecompressSync(fs.readFileSync(`${file}.br`)).equals(original)).toBe(true);
      expect(gunzipSync(fs.readFileSync(`${file}.gz`)).equals(original)).toBe(true);
    }
  });
});
