import { AppConfigError, loadAppConfig, normalizeBaseUrl, parseAppConfig } from '../../src/app/config';

function jsonFetch(status: number, body: unknown): typeof fetch {
  return jest.fn(async () => ({ ok: status === 200, status, json: async () => body }) as Response);
}

describe('app start-up configuration (/config.json)', () => {
  it('reads baseUrl and gives it a trailing slash', () => {
    expect(parseAppConfig({ baseUrl: 'http://localhost:8103/' })).toEqual({
      baseUrl: 'http://localhost:8103/',
    });
    expect(parseAppConfig({ baseUrl: 'https://api.bloom.example' })).toEqual({
      baseUrl: 'https://api.bloom.example/',
    });
  });

  it.each([
    null,
    42,
    {},
    { baseUrl: 7 },
    { baseUrl: '' },
    { baseUrl: 'ftp://x/' },
    { baseUrl: 'localhost:8103' },
  ])('SPEC §5 refuses a config without an http(s) baseUrl: %p', (value) => {
    expect(() => parseAppConfig(value)).toThrow(AppConfigError);
  });

  it("SPEC §5 names the problem 'Base URL must start with http or https'", () => {
    expect(() => normalizeBaseUrl('ws://localhost/')).toThrow('Base URL must start with http or https');
  });

  it('fetches /config.json from its own origin', async () => {
    const fetchFn = jsonFetch(200, { baseUrl: 'http://localhost:40123/' });
    await expect(loadAppConfig({ fetchFn })).resolves.toEqual({ baseUrl: 'http://localhost:40123/' });
    expect(fetchFn).toHaveBeenCalledWith('/config.json', expect.objectContaining({ cache: 'no-store' }));
  });

  it('uses the fallback (vite dev) when config.json is missing or not JSON', async () => {
    await expect(
      loadAppConfig({ fetchFn: jsonFetch(404, null), fallbackBaseUrl: 'http://localhost:8103' }),
    ).resolves.toEqual({
      baseUrl: 'http://localhost:8103/',
    });
    const htmlFetch: typeof fetch = jest.fn(
      async () => ({ ok: true, status: 200, json: async () => JSON.parse('<!doctype html>') }) as Response,
    );
    await expect(
      loadAppConfig({ fetchFn: htmlFetch, fallbackBaseUrl: 'http://localhost:8103/' }),
    ).resolves.toEqual({
      baseUrl: 'http://localhost:8103/',
    });
  });

  it('fails clearly without a fallback', async () => {
    await expect(loadAppConfig({ fetchFn: jsonFetch(404, null) })).rejects.toThrow(
      'config.json answered 404',
    );
    const offline: typeof fetch = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(loadAppConfig({ fetchFn: offline })).rejects.toThrow(
      'Could not load config.json: TypeError: Failed to fetch',
    );
    await expect(loadAppConfig({ fetchFn: jsonFetch(200, { baseUrl: 'nope' }) })).rejects.toThrow(
      'Base URL must start with http or https',
    );
  });
});

describe('optional config.json fields (issue #3 App)', () => {
  it('reads clientId, projectId and recaptchaSiteKey when present, ignoring empty ones', () => {
    expect(
      parseAppConfig({ baseUrl: 'http://x/', clientId: 'c1', projectId: 'p1', recaptchaSiteKey: '' }),
    ).toEqual({ baseUrl: 'http://x/', clientId: 'c1', projectId: 'p1' });
  });

  it.each(['clientId', 'projectId', 'recaptchaSiteKey'])('refuses a %s that is not a string', (key) => {
    expect(() => parseAppConfig({ baseUrl: 'http://x/', [key]: 42 })).toThrow(
      `config.json ${key} must be a string`,
    );
  });
});
