// Server configuration from environment variables, each with a documented default (README copies
// CONFIG_VARIABLES). Invalid values fail fast with a message naming the variable.
import path from 'node:path';

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
}

export interface SmtpConfig {
  host: string;
  port: number;
  user?: string;
  pass?: string;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface ConfigVariable {
  name: string;
  default: string;
  description: string;
}

/** Every environment variable the server reads, with its default, in README table form. */
export const CONFIG_VARIABLES: readonly ConfigVariable[] = [
  { name: 'PORT', default: '8103', description: 'Port of the FHIR API server (0 = any free port)' },
  { name: 'HOST', default: 'localhost', description: 'Interface both servers listen on (0.0.0.0 for all)' },
  {
    name: 'APP_PORT',
    default: '3000',
    description: 'Port of the server for the built app (0 = any free port)',
  },
  {
    name: 'DATA_DIR',
    default: './data',
    description: 'Directory for local data (the PGlite database lives in DATA_DIR/pglite)',
  },
  {
    name: 'DATABASE_URL',
    default: '(unset: embedded PGlite)',
    description: 'PostgreSQL connection string, e.g. postgres://user:pass@host:5432/bloom',
  },
  {
    name: 'BASE_URL',
    default: 'http://localhost:PORT/',
    description: 'Public URL of the API server, used in Location headers and links',
  },
  {
    name: 'APP_ORIGINS',
    default: 'http://localhost:APP_PORT,http://127.0.0.1:APP_PORT',
    description: 'Comma-separated origins allowed by CORS',
  },
  {
    name: 'BODY_LIMIT',
    default: '16777216',
    description: 'Maximum request body in bytes (larger bodies get 413)',
  },
  {
    name: 'DEMO_PASSWORD',
    default: 'bloom-demo',
    description: 'Password of the demo accounts seeded on first start',
  },
  { name: 'SEED_DEMO', default: 'true', description: 'Seed the demo clinic on first start (true/false)' },
  {
    name: 'LOG_LEVEL',
    default: 'info',
    description: 'fatal, error, warn, info, debug (request logs), trace or silent',
  },
  {
    name: 'ACCESS_TOKEN_LIFETIME',
    default: '3600',
    description: 'Lifetime of an access token in seconds',
  },
  {
    name: 'REFRESH_TOKEN_LIFETIME',
    default: '1209600',
    description: 'Lifetime of a refresh token in seconds (14 days); each refresh issues a new one',
  },
  {
    name: 'SMTP_HOST',
    default: '(unset: emails go to DATA_DIR/outbox/)',
    description: 'Mail server for password-reset emails; unset, each email is written to a file and logged',
  },
  { name: 'SMTP_PORT', default: '587', description: 'Mail server port (465 uses TLS from the start)' },
  { name: 'SMTP_USER', default: '(unset)', description: 'Mail server user name, if it needs one' },
  { name: 'SMTP_PASS', default: '(unset)', description: 'Mail server password, if it needs one' },
  {
    name: 'SMTP_FROM',
    default: 'Bloom <no-reply@bloom.localhost>',
    description: 'Sender address of the emails Bloom sends',
  },
  {
    name: 'GOOGLE_CLIENT_IDS',
    default: '(unset: Google sign-in off)',
    description: 'Comma-separated Google OAuth client ids whose ID tokens POST auth/google accepts',
  },
  {
    name: 'GOOGLE_JWKS_URL',
    default: 'https://www.googleapis.com/oauth2/v3/certs',
    description: "Google's signing keys, used to verify Google ID tokens",
  },
  {
    name: 'RECAPTCHA_SITE_KEY',
    default: '(unset: no reCAPTCHA in the app)',
    description:
      'reCAPTCHA v3 site key given to the app (registration runs the challenge, the CSP allows Google)',
  },
  {
    name: 'RECAPTCHA_SECRET_KEY',
    default: '(unset: registration unchecked)',
    description: 'reCAPTCHA secret; when set, POST auth/newuser needs a recaptchaToken that Google accepts',
  },
  {
    name: 'RECAPTCHA_VERIFY_URL',
    default: 'https://www.google.com/recaptcha/api/siteverify',
    description: 'Where reCAPTCHA tokens are verified',
  },
  {
    name: 'IDEMPOTENCY_WINDOW',
    default: '86400',
    description:
      'Seconds a POST with an Idempotency-Key is remembered: a repeat within it gets the first response',
  },
  {
    name: 'GRAPHQL_INTROSPECTION',
    default: 'true',
    description: 'Whether POST $graphql answers introspection queries (__schema, __type) (true/false)',
  },
  {
    name: 'GRAPHQL_MAX_COST',
    default: '10000',
    description:
      'Cost budget of one GraphQL query, about the resources it may load (a search costs 1 + _count, multiplying what is nested in it)',
  },
  {
    name: 'LIVE_HEARTBEAT_INTERVAL',
    default: '10000',
    description: 'Milliseconds between heartbeat Bundles on a bound /ws/subscriptions-r4 socket',
  },
  {
    name: 'WEBSOCKET_PING_INTERVAL',
    default: '30000',
    description:
      'Milliseconds between pings on every WebSocket; a peer that answers none of three pings in a row is closed (1008)',
  },
  {
    name: 'LIVE_EVENT_LOG_SIZE',
    default: '10000',
    description:
      'Recent write events kept per instance; a client re-binding with an older lastEventNumber gets a gap signal',
  },
  {
    name: 'LIVE_BINDING_TOKEN_LIFETIME',
    default: '3600',
    description: 'Lifetime of a Subscription $get-ws-binding-token token in seconds',
  },
  {
    name: 'BINARY_MAX_SIZE',
    default: '33554432',
    description: 'Largest POST Binary body in bytes (larger uploads get 413)',
  },
  {
    name: 'BINARY_DIR',
    default: 'DATA_DIR/binary',
    description: 'Directory where Binary contents are stored',
  },
  {
    name: 'BINARY_URL_LIFETIME',
    default: '3600',
    description: 'Seconds a signed Binary URL (an attachment in an <img>) stays valid',
  },
];

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): ServerConfig {
  const port = readPort(env, 'PORT', 8103);
  const appPort = readPort(env, 'APP_PORT', 3000);
  const host = readString(env, 'HOST') ?? 'localhost';
  const dataDir = path.resolve(readString(env, 'DATA_DIR') ?? './data');
  const databaseUrl = readDatabaseUrl(env);
  const baseUrl = readBaseUrl(env, port);
  const appOrigins = readOrigins(env, appPort);
  const bodyLimit = readPositiveInteger(env, 'BODY_LIMIT', 16 * 1024 * 1024);
  const demoPassword = readString(env, 'DEMO_PASSWORD') ?? 'bloom-demo';
  const seedDemo = readBoolean(env, 'SEED_DEMO', true);
  const logLevel = readLogLevel(env);
  const accessTokenLifetime = readPositiveInteger(env, 'ACCESS_TOKEN_LIFETIME', 3600, 'seconds');
  const refreshTokenLifetime = readPositiveInteger(env, 'REFRESH_TOKEN_LIFETIME', 14 * 24 * 3600, 'seconds');
  const smtp = readSmtp(env);
  const mailFrom = readString(env, 'SMTP_FROM') ?? 'Bloom <no-reply@bloom.localhost>';
  const googleClientIds = (readString(env, 'GOOGLE_CLIENT_IDS') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const recaptchaSecretKey = readString(env, 'RECAPTCHA_SECRET_KEY');
  const recaptchaSiteKey = readString(env, 'RECAPTCHA_SITE_KEY');
  const recaptchaVerifyUrl = readHttpUrl(
    'RECAPTCHA_VERIFY_URL',
    readString(env, 'RECAPTCHA_VERIFY_URL') ?? 'https://www.google.com/recaptcha/api/siteverify',
  ).href;
  const googleJwksUrl = readHttpUrl(
    'GOOGLE_JWKS_URL',
    readString(env, 'GOOGLE_JWKS_URL') ?? 'https://www.googleapis.com/oauth2/v3/certs',
  ).href;
  const idempotencyWindow = readPositiveInteger(env, 'IDEMPOTENCY_WINDOW', 24 * 3600, 'seconds');
  const graphqlIntrospection = readBoolean(env, 'GRAPHQL_INTROSPECTION', true);
  const graphqlMaxCost = readPositiveInteger(env, 'GRAPHQL_MAX_COST', 10000, 'resources');
  const liveHeartbeatInterval = readPositiveInteger(env, 'LIVE_HEARTBEAT_INTERVAL', 10000, 'milliseconds');
  const websocketPingInterval = readPositiveInteger(env, 'WEBSOCKET_PING_INTERVAL', 30000, 'milliseconds');
  const liveEventLogSize = readPositiveInteger(env, 'LIVE_EVENT_LOG_SIZE', 10000, 'events');
  const liveBindingTokenLifetime = readPositiveInteger(env, 'LIVE_BINDING_TOKEN_LIFETIME', 3600, 'seconds');
  const binaryMaxSize = readPositiveInteger(env, 'BINARY_MAX_SIZE', 32 * 1024 * 1024);
  const binaryDir = path.resolve(readString(env, 'BINARY_DIR') ?? path.join(dataDir, 'binary'));
  const binaryUrlLifetime = readPositiveInteger(env, 'BINARY_URL_LIFETIME', 3600, 'seconds');
  return {
    port,
    host,
    appPort,
    dataDir,
    databaseUrl,
    baseUrl,
    appOrigins,
    bodyLimit,
    demoPassword,
    seedDemo,
    logLevel,
    accessTokenLifetime,
    refreshTokenLifetime,
    smtp,
    mailFrom,
    googleClientIds,
    googleJwksUrl,
    recaptchaSecretKey,
    recaptchaSiteKey,
    recaptchaVerifyUrl,
    idempotencyWindow,
    graphqlIntrospection,
    graphqlMaxCost,
    liveHeartbeatInterval,
    websocketPingInterval,
    liveEventLogSize,
    liveBindingTokenLifetime,
    binaryMaxSize,
    binaryDir,
    binaryUrlLifetime,
  };
}

function readSmtp(env: Env): SmtpConfig | undefined {
  const host = readString(env, 'SMTP_HOST');
  if (host === undefined) {
    return undefined;
  }
  return {
    host,
    port: readPort(env, 'SMTP_PORT', 587),
    user: readString(env, 'SMTP_USER'),
    pass: readString(env, 'SMTP_PASS'),
  };
}

/** Blank values count as unset, so `PORT= npm start` behaves like no PORT at all. */
function readString(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function readPort(env: Env, name: string, fallback: number): number {
  const raw = readString(env, name);
  if (raw === undefined) {
    return fallback;
  }
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(`${name} must be a port number from 0 to 65535, got '${raw}'`);
  }
  return Number(raw);
}

function readPositiveInteger(env: Env, name: string, fallback: number, unit = 'bytes'): number {
  const raw = readString(env, name);
  if (raw === undefined) {
    return fallback;
  }
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(`${name} must be a positive whole number of ${unit}, got '${raw}'`);
  }
  return Number(raw);
}

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = readString(env, name)?.toLowerCase();
  if (raw === undefined) {
    return fallback;
  }
  if (['true', '1', 'yes'].includes(raw)) {
    return true;
  }
  if (['false', '0', 'no'].includes(raw)) {
    return false;
  }
  throw new ConfigError(`${name} must be true or false, got '${raw}'`);
}

function readHttpUrl(name: string, raw: string): URL {
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

function readBaseUrl(env: Env, port: number): string {
  const raw = readString(env, 'BASE_URL');
  if (raw === undefined) {
    return `http://localhost:${port}/`;
  }
  const url = readHttpUrl('BASE_URL', raw);
  return url.href.endsWith('/') ? url.href : url.href + '/';
}

function readOrigins(env: Env, appPort: number): string[] {
  const raw = readString(env, 'APP_ORIGINS');
  if (raw === undefined) {
    return [`http://localhost:${appPort}`, `http://127.0.0.1:${appPort}`];
  }
  return raw
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .map((origin) => readHttpUrl('APP_ORIGINS', origin).origin);
}

function readDatabaseUrl(env: Env): string | undefined {
  const raw = readString(env, 'DATABASE_URL');
  if (raw === undefined) {
    return undefined;
  }
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError(`DATABASE_URL must start with postgres:// or postgresql://`);
  }
  return raw;
}

function readLogLevel(env: Env): LogLevel {
  const raw = readString(env, 'LOG_LEVEL')?.toLowerCase() ?? 'info';
  if (!LOG_LEVELS.includes(raw as LogLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got '${raw}'`);
  }
  return raw as LogLevel;
}

/**
 * When the API listens on an OS-assigned port (PORT=0) and BASE_URL was not set, the base URL
 * follows the real port so Location headers and the app's config.json stay correct.
 */
export function withActualPort(config: ServerConfig, env: Env, actualPort: number): ServerConfig {
  if (readString(env, 'BASE_URL') !== undefined) {
    return config;
  }
  return { ...config, port: actualPort, baseUrl: `http://localhost:${actualPort}/` };
}
