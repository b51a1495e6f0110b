// Client settings of SPEC §3 with the defaults of SPEC §9, resolved once when a client is made.
import type { ClientStorage } from './storage';

/** The fetch a client calls; the global one in browsers and Node 18+, injectable for tests. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Where the FHIR API and the OAuth endpoints live when nobody says otherwise (SPEC §9). */
export const DEFAULT_BASE_URL = 'https://api.medplum.com/';
export const DEFAULT_FHIR_URL_PATH = 'fhir/R4/';
export const DEFAULT_AUTHORIZE_URL = 'oauth2/authorize';
export const DEFAULT_TOKEN_URL = 'oauth2/token';
export const DEFAULT_LOGOUT_URL = 'oauth2/logout';
export const DEFAULT_BROWSER_CACHE_TIME = 60000;
export const DEFAULT_RESOURCE_CACHE_SIZE = 1000;

export interface ClientOptions {
  /** Base URL of the server, e.g. 'https://api.example.com/' (must start with http or https). */
  baseUrl?: string;
  fhirUrlPath?: string;
  authorizeUrl?: string;
  tokenUrl?: string;
  logoutUrl?: string;
  clientId?: string;
  clientSecret?: string;
  /** How long GET responses are cached, in ms (default 60000 in a browser, 0 elsewhere). */
  cacheTime?: number;
  resourceCacheSize?: number;
  /** GETs issued within this many ms go out as one batch (0 = no batching). */
  autoBatchTime?: number;
  verbose?: boolean;
  fetch?: FetchLike;
  storage?: ClientStorage;
}

export interface ClientSettings {
  /** Always ends with '/'. */
  baseUrl: string;
  /** Absolute, always ends with '/'. */
  fhirBaseUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  logoutUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  cacheTime: number;
  resourceCacheSize: number;
  autoBatchTime: number;
  verbose: boolean;
  fetch: FetchLike;
}

export interface ClientEnvironment {
  isBrowser: boolean;
  fetch: FetchLike | undefined;
}

/** A real browser page has a window with a document; Node, workers and jest's node project do not. */
export function detectEnvironment(): ClientEnvironment {
  const g = globalThis as { window?: { document?: unknown }; fetch?: FetchLike };
  return {
    isBrowser: typeof g.window === 'object' && typeof g.window?.document === 'object',
    // Bound: browsers throw "Illegal invocation" when fetch is called detached from window.
    fetch: typeof g.fetch === 'function' ? g.fetch.bind(globalThis) : undefined,
  };
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : url + '/';
}

/** A path relative to the base URL, or an absolute URL kept as it is. */
export function resolveUrl(baseUrl: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) {
    return pathOrUrl;
  }
  return baseUrl + pathOrUrl.replace(/^\/+/, '');
}

function checkNumber(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= min)) {
    throw new Error(`${name} must be a number of at least ${min}`);
  }
}

export function resolveSettings(
  options: ClientOptions = {},
  environment: ClientEnvironment = detectEnvironment(),
): ClientSettings {
  const rawBase = options.baseUrl ?? DEFAULT_BASE_URL;
  if (!/^https?:\/\//i.test(rawBase)) {
    throw new Error('Base URL must start with http or https');
  }
  const fetch = options.fetch ?? environment.fetch;
  if (!fetch) {
    throw new Error('Fetch not available in this environment');
  }
  checkNumber('cacheTime', options.cacheTime, 0);
  checkNumber('resourceCacheSize', options.resourceCacheSize, 1);
  checkNumber('autoBatchTime', options.autoBatchTime, 0);
  const baseUrl = withTrailingSlash(rawBase);
  return {
    baseUrl,
    fhirBaseUrl: withTrailingSlash(resolveUrl(baseUrl, options.fhirUrlPath ?? DEFAULT_FHIR_URL_PATH)),
    authorizeUrl: resolveUrl(baseUrl, options.authorizeUrl ?? DEFAULT_AUTHORIZE_URL),
    tokenUrl: resolveUrl(baseUrl, options.tokenUrl ?? DEFAULT_TOKEN_URL),
    logoutUrl: resolveUrl(baseUrl, options.logoutUrl ?? DEFAULT_LOGOUT_URL),
    clientId: options.clientId || undefined,
    clientSecret: options.clientSecret || undefined,
    cacheTime: options.cacheTime ?? (environment.isBrowser ? DEFAULT_BROWSER_CACHE_TIME : 0),
    resourceCacheSize: options.resourceCacheSize ?? DEFAULT_RESOURCE_CACHE_SIZE,
    autoBatchTime: options.autoBatchTime ?? 0,
    verbose: options.verbose ?? false,
    fetch,
  };
}
