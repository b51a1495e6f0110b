import { resolveSettings, resolveUrl } from '../../src/client/settings';
import type { FetchLike } from '../../src/client/settings';

const fetch: FetchLike = () => Promise.reject(new Error('not called'));
const node = { isBrowser: false, fetch };
const browser = { isBrowser: true, fetch };

describe('SPEC §3 client settings', () => {
  test('SPEC §9 defaults: fhir/R4/, oauth2 paths, 0 ms cache in Node, 1000 entries, no batching', () => {
    const s = resolveSettings({ baseUrl: 'http://localhost:8103' }, node);
    expect(s.baseUrl).toBe('http://localhost:8103/');
    expect(s.fhirBaseUrl).toBe('http://localhost:8103/fhir/R4/');
    expect(s.authorizeUrl).toBe('http://localhost:8103/oauth2/authorize');
    expect(s.tokenUrl).toBe('http://localhost:8103/oauth2/token');
    expect(s.logoutUrl).toBe('http://localhost:8103/oauth2/logout');
    expect(s.cacheTime).toBe(0);
    expect(s.resourceCacheSize).toBe(1000);
    expect(s.autoBatchTime).toBe(0);
    expect(s.verbose).toBe(false);
    expect(s.clientId).toBeUndefined();
    expect(s.clientSecret).toBeUndefined();
    expect(s.fetch).toBe(fetch);
  });

  test('SPEC §9: the request cache lasts 60000 ms in a browser', () => {
    expect(resolveSettings({ baseUrl: 'https://x.example/' }, browser).cacheTime).toBe(60000);
    expect(resolveSettings({ baseUrl: 'https://x.example/', cacheTime: 5 }, browser).cacheTime).toBe(5);
  });

  test('SPEC §9: the default server base is the provider public API', () => {
    expect(resolveSettings({}, node).baseUrl).toBe('https://api.medplum.com/');
  });

  test('every setting can be overridden; relative paths resolve against the base, absolute URLs stay', () => {
    const s = resolveSettings(
      {
        baseUrl: 'https://api.example.com/base/',
        fhirUrlPath: '/fhir/R5',
        authorizeUrl: 'https://idp.example.com/authorize',
        tokenUrl: 'token',
        logoutUrl: 'logout',
        clientId: 'app',
        clientSecret: 'secret',
        cacheTime: 10,
        resourceCacheSize: 5,
        autoBatchTime: 100,
        verbose: true,
      },
      node,
    );
    expect(s).toMatchObject({
      baseUrl: 'https://api.example.com/base/',
      fhirBaseUrl: 'https://api.example.com/base/fhir/R5/',
      authorizeUrl: 'https://idp.example.com/authorize',
      tokenUrl: 'https://api.example.com/base/token',
      logoutUrl: 'https://api.example.com/base/logout',
      clientId: 'app',
      clientSecret: 'secret',
      cacheTime: 10,
      resourceCacheSize: 5,
      autoBatchTime: 100,
      verbose: true,
    });
  });

  test.each(['ftp://x.example', 'localhost:8103', '/api', 'javascript:alert(1)', ''])(
    'SPEC §5: base URL %p → "Base URL must start with http or https"',
    (baseUrl) => {
      expect(() => resolveSettings({ baseUrl }, node)).toThrow('Base URL must start with http or https');
    },
  );

  test('SPEC §8: no fetch given and none global → "Fetch not available in this environment"', () => {
    expect(() => resolveSettings({ baseUrl: 'http://x' }, { isBrowser: false, fetch: undefined })).toThrow(
      'Fetch not available in this environment',
    );
  });

  test('an injected fetch wins over the global one', () => {
    const mine: FetchLike = () => Promise.reject(new Error('mine'));
    expect(resolveSettings({ baseUrl: 'http://x', fetch: mine }, node).fetch).toBe(mine);
    expect(
      resolveSettings({ baseUrl: 'http://x', fetch: mine }, { isBrowser: false, fetch: undefined }).fetch,
    ).toBe(mine);
  });

  test.each([
    ['cacheTime', -1],
    ['resourceCacheSize', 0],
    ['autoBatchTime', Number.NaN],
  ])('bad number %s=%p is refused', (name, value) => {
    expect(() => resolveSettings({ baseUrl: 'http://x', [name]: value }, node)).toThrow(name);
  });

  test('resolveUrl keeps absolute URLs and strips leading slashes from paths', () => {
    expect(resolveUrl('http://a/', '/auth/me')).toBe('http://a/auth/me');
    expect(resolveUrl('http://a/', 'HTTPS://b/c')).toBe('HTTPS://b/c');
  });
});
