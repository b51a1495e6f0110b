// The app learns the API base URL at start-up from /config.json on its own origin, which the server's
// app host writes from its real port: { "baseUrl": "http://localhost:8103/" }. Under `vite dev` there is no
// such file, so the caller passes a fallback.

export interface AppConfig {
  /** Base URL of the API server, always ending with '/' (e.g. http://localhost:8103/). */
  readonly baseUrl: string;
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
  return { baseUrl: normalizeBaseUrl(json.baseUrl) };
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
