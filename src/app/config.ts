// The app learns the API base URL at start-up from /config.json on its own origin, which the server's
// app host writes from its real port: { "baseUrl": "http://localhost:8103/" }. Under `vite dev` there is no
// such file, so the caller passes a fallback.

export interface AppConfig {
  /** Base URL of the API server, always ending with '/' (e.g. http://localhost:8103/). */
  readonly baseUrl: string;
  /** The app's ClientApplication id, when the server names one; sign-ins then carry it. */
  readonly clientId?: string;
  /** The clinic's Project id that patients register with (auth/newpatient), when the server names one. */
  readonly projectId?: string;
  /** reCAPTCHA site key; registration shows the challenge only when one is configured. */
  readonly recaptchaSiteKey?: string;
}

function optionalString(
  json: object,
  key: 'clientId' | 'projectId' | 'recaptchaSiteKey',
): string | undefined {
  const value = (json as Record<string, unknown>)[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new AppConfigError(`config.json ${key} must be a string`);
  return value;
}

export class AppConfigError extends Error {}

/** Checks a base URL (SPEC §5 "baseUrl must start with http") and gives it a trailing slash. */
export function normalizeBaseUrl(value: unknown): string {
  if (typeof value !== 'string' || !/^https?:\/\/[^\s/]+/.test(value)) {
    throw new AppConfigError('Base URL must start with http or https');
  }
  return value.endsWith('/') ? value : `${value}/`;
}

/** Reads the config document's fields; anything malformed is an AppConfigError. */
export function parseAppConfig(json: unknown): AppConfig {
  if (typeof json !== 'object' || json === null || !('baseUrl' in json)) {
    throw new AppConfigError('config.json has no baseUrl');
  }
  const config: { -readonly [K in keyof AppConfig]: AppConfig[K] } = {
    baseUrl: normalizeBaseUrl(json.baseUrl),
  };
  for (const key of ['clientId', 'projectId', 'recaptchaSiteKey'] as const) {
    const value = optionalString(json, key);
    if (value !== undefined) config[key] = value;
  }
  return config;
}

/**
 * Fetches `/config.json`. When it cannot be read (no server app host, e.g. under `vite dev`) the fallback base
 * URL is used if one is given; otherwise the failure is thrown so the app can say it cannot start.
 */
export async function loadAppConfig(
  options: { fallbackBaseUrl?: string; fetchFn?: typeof fetch } = {},
): Promise<AppConfig> {
  const fetchFn = options.fetchFn ?? fetch;
  try {
    const response = await fetchFn('/config.json', {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
    });
    if (!response.ok) throw new AppConfigError(`config.json answered ${response.status}`);
    return parseAppConfig(await response.json());
  } catch (err) {
    if (options.fallbackBaseUrl !== undefined) return { baseUrl: normalizeBaseUrl(options.fallbackBaseUrl) };
    throw err instanceof AppConfigError
      ? err
      : new AppConfigError(`Could not load config.json: ${String(err)}`);
  }
}
