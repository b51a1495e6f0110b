// Server configuration from environment variables. CONFIG_VARIABLES is the one list of them: each
// with the default the README shows, the parser that reads it and a description; the README's
// configuration table is generated from it (`npm run docs:config`) and a test keeps them equal.
// Invalid values fail fast at start-up with a message naming the variable.
import net from 'node:net';
import path from 'node:path';
import type { RequestLimits } from './input-limits';

export interface ServerConfig {
  /** API port; 0 asks the OS for a free one. */
  port: number;
  host: string;
  /** Port of the small server that serves the built app; 0 asks the OS for a free one. */
  appPort: number;
  dataDir: string;
  /** PostgreSQL connection string; undefined means embedded PGlite under dataDir/pglite. */
  databaseUrl: string | undefined;
  /** Public base URL of the API, always ending in '/'. */
  baseUrl: string;
  /** Origins allowed by CORS (the app's own URLs by default). */
  appOrigins: string[];
  /** Maximum request body size in bytes. */
  bodyLimit: number;
  demoPassword: string;
  seedDemo: boolean;
  /** Print how long each start-up phase took (diagnostics for a slow start). */
  startTiming: boolean;
  logLevel: LogLevel;
  /** Lifetime of an access token in seconds (short, 1 h by default). */
  accessTokenLifetime: number;
  /** Lifetime of a refresh token in seconds; each refresh rotates it. */
  refreshTokenLifetime: number;
  /** Outgoing mail server; undefined means emails are written to DATA_DIR/outbox/ and logged. */
  smtp: SmtpConfig | undefined;
  /** Sender of the server's emails (password reset). */
  mailFrom: string;
  /** Google OAuth client ids whose ID tokens auth/google accepts; empty disables Google sign-in. */
  googleClientIds: string[];
  /** Where Google's signing keys are published (a test serves its own on loopback). */
  googleJwksUrl: string;
  /** reCAPTCHA secret: when set, auth/newuser needs a recaptchaToken that Google accepts. */
  recaptchaSecretKey: string | undefined;
  /** reCAPTCHA site key the app gets in /config.json (registration shows the challenge only then). */
  recaptchaSiteKey: string | undefined;
  /** Where reCAPTCHA tokens are verified (a test serves its own on loopback). */
  recaptchaVerifyUrl: string;
  /** How long an Idempotency-Key and its first response are kept, in seconds. */
  idempotencyWindow: number;
  /** Whether $graphql answers introspection queries (on by default, for GraphiQL and codegen). */
  graphqlIntrospection: boolean;
  /** The cost budget of one GraphQL query: about how many resources it may load. */
  graphqlMaxCost: number;
  /** Searches one GraphQL document runs at once (the rest wait their turn). */
  graphqlMaxConcurrentSearches: number;
  /** Whether the GraphQL schema is built in the background once the server listens. */
  graphqlSchemaAtStart: boolean;
  /** Live updates: milliseconds between heartbeats on a bound subscription socket. */
  liveHeartbeatInterval: number;
  /** Milliseconds between pings on every WebSocket; a peer that answers none of three is closed. */
  websocketPingInterval: number;
  /** How many recent write events each instance keeps for clients that re-bind after a drop. */
  liveEventLogSize: number;
  /** Lifetime of a $get-ws-binding-token token in seconds. */
  liveBindingTokenLifetime: number;
  /** Largest Binary upload in bytes. */
  binaryMaxSize: number;
  /** Directory of the Binary contents (the default file storage). */
  binaryDir: string;
  /** Lifetime of a signed Binary URL in seconds. */
  binaryUrlLifetime: number;
  /** Bounds on the work one request can ask for (src/server/input-limits.ts). */
  limits: RequestLimits;
  /** Proxies (addresses, CIDRs) whose X-Forwarded-For names the client; empty trusts none. */
  trustProxy: string[];
  /** PGlite: ms a request may wait for the database, at admission and over its statements, before 503 (load-shedding.ts). */
  pgliteMaxQueueWait: number;
}

export interface SmtpConfig {
  host: string;
  port: number;
  user?: string;
  pass?: string;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** One environment variable: what the README says of it, and how the server reads it. */
export interface ConfigVariable<T = unknown> {
  name: string;
  /** The default as the README shows it (a value, or what being unset means). */
  default: string;
  description: string;
  /** Reads the raw value (undefined when unset or blank); a bad value throws a ConfigError. */
  parse: (raw: string | undefined) => T;
}

function variable<T>(
  name: string,
  shownDefault: string,
  description: string,
  parse: (raw: string | undefined, name: string) => T,
): ConfigVariable<T> {
  return { name, default: shownDefault, description, parse: (raw) => parse(raw, name) };
}

// Parsers. Each takes the raw value (undefined when unset) and the variable's name for its message.

const text =
  (fallback: string) =>
  (raw: string | undefined): string =>
    raw ?? fallback;

const optionalText = (raw: string | undefined): string | undefined => raw;

const portNumber =
  (fallback: number) =>
  (raw: string | undefined, name: string): number => {
    if (raw === undefined) {
      return fallback;
    }
    if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
      throw new ConfigError(`${name} must be a port number from 0 to 65535, got '${raw}'`);
    }
    return Number(raw);
  };

const positiveInteger =
  (fallback: number, unit: string) =>
  (raw: string | undefined, name: string): number => {
    if (raw === undefined) {
      return fallback;
    }
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
      throw new ConfigError(`${name} must be a positive whole number of ${unit}, got '${raw}'`);
    }
    return Number(raw);
  };

const boolean =
  (fallback: boolean) =>
  (raw: string | undefined, name: string): boolean => {
    const value = raw?.toLowerCase();
    if (value === undefined) {
      return fallback;
    }
    if (['true', '1', 'yes'].includes(value)) {
      return true;
    }
    if (['false', '0', 'no'].includes(value)) {
      return false;
    }
    throw new ConfigError(`${name} must be true or false, got '${value}'`);
  };

function httpUrl(name: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http or https URL, got '${raw}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http or https URL, got '${raw}'`);
  }
  return url;
}

const urlWithDefault =
  (fallback: string) =>
  (raw: string | undefined, name: string): string =>
    httpUrl(name, raw ?? fallback).href;

/** Undefined when unset: the default depends on another variable (see loadConfig). */
const optionalBaseUrl = (raw: string | undefined, name: string): string | undefined => {
  if (raw === undefined) {
    return undefined;
  }
  const href = httpUrl(name, raw).href;
  return href.endsWith('/') ? href : href + '/';
};

const list = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const PROXY_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal'];

/** Addresses or CIDRs (IPv4 or IPv6), or proxy-addr's keywords; each checked so a typo fails fast. */
const proxyList = (raw: string | undefined, name: string): string[] =>
  list(raw).map((entry) => {
    const [address, prefix, extra] = entry.split('/');
    const family = net.isIP(address);
    const maxPrefix = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (PROXY_KEYWORDS.includes(entry) || (family !== 0 && prefixOk && extra === undefined)) {
      return entry;
    }
    throw new ConfigError(
      `${name} must be a comma-separated list of IP addresses or CIDRs (or ${PROXY_KEYWORDS.join(', ')}), got '${entry}'`,
    );
  });

/** Undefined when unset: the default origins follow APP_PORT (see loadConfig). */
const optionalOrigins = (raw: string | undefined, name: string): string[] | undefined =>
  raw === undefined ? undefined : list(raw).map((origin) => httpUrl(name, origin).origin);

const databaseUrl = (raw: string | undefined, name: string): string | undefined => {
  if (raw !== undefined && !/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError(`${name} must start with postgres:// or postgresql://`);
  }
  return raw;
};

const logLevel = (raw: string | undefined, name: string): LogLevel => {
  const value = raw?.toLowerCase() ?? 'info';
  if (!LOG_LEVELS.includes(value as LogLevel)) {
    throw new ConfigError(`${name} must be one of ${LOG_LEVELS.join(', ')}, got '${value}'`);
  }
  return value as LogLevel;
};

/** Every environment variable the server reads, in the README's order. */
const VARIABLES = {
  port: variable('PORT', '8103', 'Port of the FHIR API server (0 = any free port)', portNumber(8103)),
  host: variable(
    'HOST',
    'localhost',
    'Interface both servers listen on (0.0.0.0 for all)',
    text('localhost'),
  ),
  appPort: variable(
    'APP_PORT',
    '3000',
    'Port of the server for the built app (0 = any free port)',
    portNumber(3000),
  ),
  dataDir: variable(
    'DATA_DIR',
    './data',
    'Directory for local data (the PGlite database lives in DATA_DIR/pglite)',
    text('./data'),
  ),
  databaseUrl: variable(
    'DATABASE_URL',
    '(unset: embedded PGlite)',
    'PostgreSQL connection string, e.g. postgres://user:pass@host:5432/bloom',
    databaseUrl,
  ),
  baseUrl: variable(
    'BASE_URL',
    'http://localhost:PORT/',
    'Public URL of the API server, used in Location headers and links',
    optionalBaseUrl,
  ),
  appOrigins: variable(
    'APP_ORIGINS',
    'http://localhost:APP_PORT,http://127.0.0.1:APP_PORT',
    'Comma-separated origins allowed by CORS',
    optionalOrigins,
  ),
  bodyLimit: variable(
    'BODY_LIMIT',
    '16777216',
    'Maximum request body in bytes (larger bodies get 413)',
    positiveInteger(16 * 1024 * 1024, 'bytes'),
  ),
  demoPassword: variable(
    'DEMO_PASSWORD',
    'bloom-demo',
    'Password of the demo accounts seeded on first start',
    text('bloom-demo'),
  ),
  seedDemo: variable('SEED_DEMO', 'true', 'Seed the demo clinic on first start (true/false)', boolean(true)),
  startTiming: variable(
    'START_TIMING',
    'false',
    'Print how long each start-up phase took, in ms (true/false)',
    boolean(false),
  ),
  logLevel: variable(
    'LOG_LEVEL',
    'info',
    'fatal, error, warn, info, debug (request logs), trace or silent',
    logLevel,
  ),
  accessTokenLifetime: variable(
    'ACCESS_TOKEN_LIFETIME',
    '3600',
    'Lifetime of an access token in seconds',
    positiveInteger(3600, 'seconds'),
  ),
  refreshTokenLifetime: variable(
    'REFRESH_TOKEN_LIFETIME',
    '1209600',
    'Lifetime of a refresh token in seconds (14 days); each refresh issues a new one',
    positiveInteger(14 * 24 * 3600, 'seconds'),
  ),
  smtpHost: variable(
    'SMTP_HOST',
    '(unset: emails go to DATA_DIR/outbox/)',
    'Mail server for password-reset emails; unset, each email is written to a file and logged',
    optionalText,
  ),
  smtpPort: variable('SMTP_PORT', '587', 'Mail server port (465 uses TLS from the start)', portNumber(587)),
  smtpUser: variable('SMTP_USER', '(unset)', 'Mail server user name, if it needs one', optionalText),
  smtpPass: variable('SMTP_PASS', '(unset)', 'Mail server password, if it needs one', optionalText),
  mailFrom: variable(
    'SMTP_FROM',
    'Bloom <no-reply@bloom.localhost>',
    'Sender address of the emails Bloom sends',
    text('Bloom <no-reply@bloom.localhost>'),
  ),
  googleClientIds: variable(
    'GOOGLE_CLIENT_IDS',
    '(unset: Google sign-in off)',
    'Comma-separated Google OAuth client ids whose ID tokens POST auth/google accepts',
    list,
  ),
  googleJwksUrl: variable(
    'GOOGLE_JWKS_URL',
    'https://www.googleapis.com/oauth2/v3/certs',
    "Google's signing keys, used to verify Google ID tokens",
    urlWithDefault('https://www.googleapis.com/oauth2/v3/certs'),
  ),
  recaptchaSiteKey: variable(
    'RECAPTCHA_SITE_KEY',
    '(unset: no reCAPTCHA in the app)',
    'reCAPTCHA v3 site key given to the app (registration runs the challenge, the CSP allows Google)',
    optionalText,
  ),
  recaptchaSecretKey: variable(
    'RECAPTCHA_SECRET_KEY',
    '(unset: registration unchecked)',
    'reCAPTCHA secret; when set, POST auth/newuser needs a recaptchaToken that Google accepts',
    optionalText,
  ),
  recaptchaVerifyUrl: variable(
    'RECAPTCHA_VERIFY_URL',
    'https://www.google.com/recaptcha/api/siteverify',
    'Where reCAPTCHA tokens are verified',
    urlWithDefault('https://www.google.com/recaptcha/api/siteverify'),
  ),
  idempotencyWindow: variable(
    'IDEMPOTENCY_WINDOW',
    '86400',
    'Seconds a POST with an Idempotency-Key is remembered: a repeat within it gets the first response',
    positiveInteger(24 * 3600, 'seconds'),
  ),
  graphqlIntrospection: variable(
    'GRAPHQL_INTROSPECTION',
    'true',
    'Whether POST $graphql answers introspection queries (__schema, __type) (true/false)',
    boolean(true),
  ),
  graphqlMaxCost: variable(
    'GRAPHQL_MAX_COST',
    '10000',
    'Cost budget of one GraphQL query, about the resources it may load (a search costs 1 + _count, multiplying what is nested in it)',
    positiveInteger(10000, 'resources'),
  ),
  graphqlMaxConcurrentSearches: variable(
    'GRAPHQL_MAX_CONCURRENT_SEARCHES',
    '4',
    'Searches one GraphQL document runs at once; its other lists wait their turn, so a document with many aliased lists cannot take the database from other requests',
    positiveInteger(4, 'searches'),
  ),
  graphqlSchemaAtStart: variable(
    'GRAPHQL_SCHEMA_AT_START',
    'true',
    'Whether the GraphQL schema is built in the background once the server listens (true), or on the first GraphQL request (false), which then waits for it (true/false)',
    boolean(true),
  ),
  liveHeartbeatInterval: variable(
    'LIVE_HEARTBEAT_INTERVAL',
    '10000',
    'Milliseconds between heartbeat Bundles on a bound /ws/subscriptions-r4 socket',
    positiveInteger(10000, 'milliseconds'),
  ),
  websocketPingInterval: variable(
    'WEBSOCKET_PING_INTERVAL',
    '30000',
    'Milliseconds between pings on every WebSocket; a peer that answers none of three pings in a row is closed (1008)',
    positiveInteger(30000, 'milliseconds'),
  ),
  liveEventLogSize: variable(
    'LIVE_EVENT_LOG_SIZE',
    '10000',
    'Recent write events kept per instance; a client re-binding with an older lastEventNumber gets a gap signal',
    positiveInteger(10000, 'events'),
  ),
  liveBindingTokenLifetime: variable(
    'LIVE_BINDING_TOKEN_LIFETIME',
    '3600',
    'Lifetime of a Subscription $get-ws-binding-token token in seconds',
    positiveInteger(3600, 'seconds'),
  ),
  binaryMaxSize: variable(
    'BINARY_MAX_SIZE',
    '33554432',
    'Largest POST Binary body in bytes (larger uploads get 413)',
    positiveInteger(32 * 1024 * 1024, 'bytes'),
  ),
  binaryDir: variable(
    'BINARY_DIR',
    'DATA_DIR/binary',
    'Directory where Binary contents are stored',
    optionalText,
  ),
  binaryUrlLifetime: variable(
    'BINARY_URL_LIFETIME',
    '3600',
    'Seconds a signed Binary URL (an attachment in an <img>) stays valid',
    positiveInteger(3600, 'seconds'),
  ),
  maxJsonDepth: variable(
    'MAX_JSON_DEPTH',
    '64',
    'Deepest nesting of arrays and objects in a JSON body (deeper bodies get 400)',
    positiveInteger(64, 'levels'),
  ),
  maxArrayLength: variable(
    'MAX_ARRAY_LENGTH',
    '1000',
    'Most elements in one JSON array of a body, e.g. names of a Patient (longer arrays get 400)',
    positiveInteger(1000, 'elements'),
  ),
  maxStringLength: variable(
    'MAX_STRING_LENGTH',
    '1048576',
    'Most characters in one JSON string of a body (longer strings get 400)',
    positiveInteger(1048576, 'characters'),
  ),
  maxBatchEntries: variable(
    'MAX_BATCH_ENTRIES',
    '1000',
    'Most entries in one batch or transaction Bundle (more get 400)',
    positiveInteger(1000, 'entries'),
  ),
  maxSearchParameters: variable(
    'MAX_SEARCH_PARAMETERS',
    '32',
    'Most parameters in one search, repeated ones counted each time (more get 400)',
    positiveInteger(32, 'parameters'),
  ),
  maxSearchValues: variable(
    'MAX_SEARCH_VALUES',
    '100',
    'Most values in one search, each comma-separated value counted (more get 400)',
    positiveInteger(100, 'values'),
  ),
  maxIndexValues: variable(
    'MAX_INDEX_VALUES',
    '10000',
    'Most search index values (rows) one written resource may produce (more get 400)',
    positiveInteger(10000, 'values'),
  ),
  requestTimeout: variable(
    'REQUEST_TIMEOUT',
    '30000',
    'Milliseconds a client has to send a whole request (slower ones get 408)',
    positiveInteger(30000, 'milliseconds'),
  ),
  trustProxy: variable(
    'TRUST_PROXY',
    '(unset: no proxy trusted)',
    'Comma-separated addresses or CIDRs of your reverse proxies: only from these is X-Forwarded-For taken as the client address (sign-in throttling, Login.remoteAddress)',
    proxyList,
  ),
  pgliteMaxQueueWait: variable(
    'PGLITE_MAX_QUEUE_WAIT',
    '1000',
    'Embedded PGlite only (it runs one query at a time): once the oldest waiting query has waited this many milliseconds, new API requests get 503 with Retry-After at once instead of queueing, and an admitted request whose statements have waited this long in all is refused the same way before its first write; the health check is exempt',
    positiveInteger(1000, 'milliseconds'),
  ),
};

type Values = { [K in keyof typeof VARIABLES]: ReturnType<(typeof VARIABLES)[K]['parse']> };

/** Every environment variable the server reads, in the README's order. */
export const CONFIG_VARIABLES: readonly ConfigVariable[] = Object.values(VARIABLES);

/** Blank values count as unset, so `PORT= npm start` behaves like no PORT at all. */
function raw(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** Whether the variable has a value (blank counts as unset, as everywhere here). */
export function isSet(env: Env, name: string): boolean {
  return raw(env, name) !== undefined;
}

function readAll(env: Env): Values {
  const values: Partial<Record<keyof Values, unknown>> = {};
  for (const key of Object.keys(VARIABLES) as (keyof Values)[]) {
    const spec: ConfigVariable = VARIABLES[key];
    values[key] = spec.parse(raw(env, spec.name));
  }
  return values as Values;
}

export function loadConfig(env: Env = process.env): ServerConfig {
  const v = readAll(env);
  const dataDir = path.resolve(v.dataDir);
  return {
    port: v.port,
    host: v.host,
    appPort: v.appPort,
    dataDir,
    databaseUrl: v.databaseUrl,
    baseUrl: v.baseUrl ?? `http://localhost:${v.port}/`,
    appOrigins: v.appOrigins ?? [`http://localhost:${v.appPort}`, `http://127.0.0.1:${v.appPort}`],
    bodyLimit: v.bodyLimit,
    demoPassword: v.demoPassword,
    seedDemo: v.seedDemo,
    startTiming: v.startTiming,
    logLevel: v.logLevel,
    accessTokenLifetime: v.accessTokenLifetime,
    refreshTokenLifetime: v.refreshTokenLifetime,
    smtp:
      v.smtpHost === undefined
        ? undefined
        : { host: v.smtpHost, port: v.smtpPort, user: v.smtpUser, pass: v.smtpPass },
    mailFrom: v.mailFrom,
    googleClientIds: v.googleClientIds,
    googleJwksUrl: v.googleJwksUrl,
    recaptchaSecretKey: v.recaptchaSecretKey,
    recaptchaSiteKey: v.recaptchaSiteKey,
    recaptchaVerifyUrl: v.recaptchaVerifyUrl,
    idempotencyWindow: v.idempotencyWindow,
    graphqlIntrospection: v.graphqlIntrospection,
    graphqlMaxCost: v.graphqlMaxCost,
    graphqlMaxConcurrentSearches: v.graphqlMaxConcurrentSearches,
    graphqlSchemaAtStart: v.graphqlSchemaAtStart,
    liveHeartbeatInterval: v.liveHeartbeatInterval,
    websocketPingInterval: v.websocketPingInterval,
    liveEventLogSize: v.liveEventLogSize,
    liveBindingTokenLifetime: v.liveBindingTokenLifetime,
    binaryMaxSize: v.binaryMaxSize,
    binaryDir: path.resolve(v.binaryDir ?? path.join(dataDir, 'binary')),
    binaryUrlLifetime: v.binaryUrlLifetime,
    limits: {
      maxDepth: v.maxJsonDepth,
      maxArrayLength: v.maxArrayLength,
      maxStringLength: v.maxStringLength,
      maxBatchEntries: v.maxBatchEntries,
      maxSearchParameters: v.maxSearchParameters,
      maxSearchValues: v.maxSearchValues,
      maxIndexValues: v.maxIndexValues,
      requestTimeout: v.requestTimeout,
    },
    trustProxy: v.trustProxy,
    pgliteMaxQueueWait: v.pgliteMaxQueueWait,
  };
}

/**
 * When the API listens on an OS-assigned port (PORT=0) and BASE_URL was not set, the base URL
 * follows the real port so Location headers and the app's config.json stay correct.
 */
export function withActualPort(config: ServerConfig, env: Env, actualPort: number): ServerConfig {
  if (isSet(env, 'BASE_URL')) {
    return config;
  }
  return { ...config, port: actualPort, baseUrl: `http://localhost:${actualPort}/` };
}
