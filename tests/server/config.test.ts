// Server configuration from the environment: defaults and clear errors.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONFIG_VARIABLES, ConfigError, loadConfig, withActualPort } from '../../src/server/config';

describe('loadConfig', () => {
  test('defaults: API on 8103, app on 3000, data in ./data, PGlite, the app origins allowed', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 8103,
      host: 'localhost',
      appPort: 3000,
      dataDir: path.resolve('data'),
      databaseUrl: undefined,
      baseUrl: 'http://localhost:8103/',
      appOrigins: ['http://localhost:3000', 'http://127.0.0.1:3000'],
      bodyLimit: 16 * 1024 * 1024,
      demoPassword: 'bloom-demo',
      seedDemo: true,
      startTiming: false,
      logLevel: 'info',
      accessTokenLifetime: 3600,
      refreshTokenLifetime: 14 * 24 * 3600,
      smtp: undefined,
      mailFrom: 'Bloom <no-reply@bloom.localhost>',
      googleClientIds: [],
      googleJwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
      recaptchaSecretKey: undefined,
      recaptchaSiteKey: undefined,
      recaptchaVerifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
      idempotencyWindow: 86400,
      graphqlIntrospection: true,
      graphqlMaxCost: 10000,
      graphqlMaxConcurrentSearches: 4,
      graphqlSchemaAtStart: true,
      liveHeartbeatInterval: 10000,
      trustProxy: [],
      pgliteMaxQueueWait: 1000,
      websocketPingInterval: 30000,
      liveEventLogSize: 10000,
      liveBindingTokenLifetime: 3600,
      binaryMaxSize: 32 * 1024 * 1024,
      binaryDir: path.resolve('data', 'binary'),
      binaryUrlLifetime: 3600,
      limits: {
        maxDepth: 64,
        maxArrayLength: 1000,
        maxStringLength: 1048576,
        maxBatchEntries: 1000,
        maxSearchParameters: 32,
        maxSearchValues: 100,
        maxIndexValues: 10000,
        requestTimeout: 30000,
      },
    });
  });

  test('every variable is read, and blank values count as unset', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      APP_PORT: '0',
      DATA_DIR: '/tmp/bloom-data',
      DATABASE_URL: 'postgres://u:p@db:5432/bloom',
      BASE_URL: 'https://api.bloom.example',
      APP_ORIGINS: 'https://bloom.example, https://www.bloom.example/',
      BODY_LIMIT: '1024',
      DEMO_PASSWORD: 'secret',
      SEED_DEMO: 'false',
      START_TIMING: 'true',
      LOG_LEVEL: 'DEBUG',
      ACCESS_TOKEN_LIFETIME: '600',
      REFRESH_TOKEN_LIFETIME: '86400',
      SMTP_HOST: 'smtp.bloom.example',
      SMTP_PORT: '465',
      SMTP_USER: 'mailer',
      SMTP_PASS: 'pw',
      SMTP_FROM: 'Clinic <clinic@bloom.example>',
      GOOGLE_CLIENT_IDS: 'a.apps.googleusercontent.com, b.apps.googleusercontent.com',
      GOOGLE_JWKS_URL: 'http://127.0.0.1:9999/certs',
      RECAPTCHA_SITE_KEY: 'site-key',
      RECAPTCHA_SECRET_KEY: 'secret-key',
      RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9998/siteverify',
      IDEMPOTENCY_WINDOW: '60',
      GRAPHQL_INTROSPECTION: 'false',
      GRAPHQL_MAX_COST: '500',
      GRAPHQL_MAX_CONCURRENT_SEARCHES: '2',
      GRAPHQL_SCHEMA_AT_START: 'false',
      LIVE_HEARTBEAT_INTERVAL: '2000',
      WEBSOCKET_PING_INTERVAL: '5000',
      LIVE_EVENT_LOG_SIZE: '50',
      LIVE_BINDING_TOKEN_LIFETIME: '120',
      BINARY_MAX_SIZE: '4096',
      BINARY_DIR: '/tmp/bloom-binary',
      BINARY_URL_LIFETIME: '300',
      MAX_JSON_DEPTH: '32',
      MAX_ARRAY_LENGTH: '500',
      MAX_STRING_LENGTH: '4096',
      MAX_BATCH_ENTRIES: '50',
      MAX_SEARCH_PARAMETERS: '10',
      MAX_SEARCH_VALUES: '20',
      MAX_INDEX_VALUES: '300',
      REQUEST_TIMEOUT: '5000',
      TRUST_PROXY: '10.0.0.1, 192.168.0.0/16',
      PGLITE_MAX_QUEUE_WAIT: '250',
    });
    expect(config).toEqual({
      port: 9000,
      host: '0.0.0.0',
      appPort: 0,
      dataDir: '/tmp/bloom-data',
      databaseUrl: 'postgres://u:p@db:5432/bloom',
      baseUrl: 'https://api.bloom.example/',
      appOrigins: ['https://bloom.example', 'https://www.bloom.example'],
      bodyLimit: 1024,
      demoPassword: 'secret',
      seedDemo: false,
      startTiming: true,
      logLevel: 'debug',
      accessTokenLifetime: 600,
      refreshTokenLifetime: 86400,
      smtp: { host: 'smtp.bloom.example', port: 465, user: 'mailer', pass: 'pw' },
      mailFrom: 'Clinic <clinic@bloom.example>',
      googleClientIds: ['a.apps.googleusercontent.com', 'b.apps.googleusercontent.com'],
      googleJwksUrl: 'http://127.0.0.1:9999/certs',
      recaptchaSecretKey: 'secret-key',
      recaptchaSiteKey: 'site-key',
      recaptchaVerifyUrl: 'http://127.0.0.1:9998/siteverify',
      idempotencyWindow: 60,
      graphqlIntrospection: false,
      graphqlMaxCost: 500,
      graphqlMaxConcurrentSearches: 2,
      graphqlSchemaAtStart: false,
      liveHeartbeatInterval: 2000,
      trustProxy: ['10.0.0.1', '192.168.0.0/16'],
      pgliteMaxQueueWait: 250,
      websocketPingInterval: 5000,
      liveEventLogSize: 50,
      liveBindingTokenLifetime: 120,
      binaryMaxSize: 4096,
      binaryDir: '/tmp/bloom-binary',
      binaryUrlLifetime: 300,
      limits: {
        maxDepth: 32,
        maxArrayLength: 500,
        maxStringLength: 4096,
        maxBatchEntries: 50,
        maxSearchParameters: 10,
        maxSearchValues: 20,
        maxIndexValues: 300,
        requestTimeout: 5000,
      },
    });
    expect(loadConfig({ PORT: '  ', DATABASE_URL: '' }).port).toBe(8103);
  });

  test.each([
    [{ PORT: 'eighty' }, /PORT must be a port number/],
    [{ PORT: '70000' }, /PORT must be a port number/],
    [{ APP_PORT: '-1' }, /APP_PORT must be a port number/],
    [{ BODY_LIMIT: '0' }, /BODY_LIMIT must be a positive whole number/],
    [{ IDEMPOTENCY_WINDOW: '1h' }, /IDEMPOTENCY_WINDOW must be a positive whole number of seconds/],
    [{ GRAPHQL_MAX_COST: '0' }, /GRAPHQL_MAX_COST must be a positive whole number/],
    [{ GRAPHQL_INTROSPECTION: 'sometimes' }, /GRAPHQL_INTROSPECTION must be true or false/],
    [{ BASE_URL: 'ftp://x' }, /BASE_URL must be an http or https URL/],
    [{ APP_ORIGINS: 'not a url' }, /APP_ORIGINS must be an http or https URL/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres/],
    [{ SEED_DEMO: 'maybe' }, /SEED_DEMO must be true or false/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ RECAPTCHA_VERIFY_URL: 'siteverify' }, /RECAPTCHA_VERIFY_URL must be an http or https URL/],
    [{ ACCESS_TOKEN_LIFETIME: '1h' }, /ACCESS_TOKEN_LIFETIME must be a positive whole number of seconds/],
    [{ REFRESH_TOKEN_LIFETIME: '0' }, /REFRESH_TOKEN_LIFETIME must be a positive whole number of seconds/],
    [{ SMTP_HOST: 'mail', SMTP_PORT: 'x' }, /SMTP_PORT must be a port number/],
    [{ SMTP_PORT: '99999' }, /SMTP_PORT must be a port number/],
    [{ BINARY_MAX_SIZE: '32MB' }, /BINARY_MAX_SIZE must be a positive whole number of bytes/],
    [{ GOOGLE_JWKS_URL: 'file:///etc/keys' }, /GOOGLE_JWKS_URL must be an http or https URL/],
    [
      { PGLITE_MAX_QUEUE_WAIT: '1s' },
      /PGLITE_MAX_QUEUE_WAIT must be a positive whole number of milliseconds/,
    ],
  ])('bad value %j is a ConfigError naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  test('with PORT=0 the base URL follows the port actually chosen, unless BASE_URL is set', () => {
    const config = loadConfig({ PORT: '0' });
    expect(withActualPort(config, { PORT: '0' }, 41234).baseUrl).toBe('http://localhost:41234/');
    const fixed = loadConfig({ PORT: '0', BASE_URL: 'https://api.example/' });
    expect(withActualPort(fixed, { PORT: '0', BASE_URL: 'https://api.example/' }, 41234).baseUrl).toBe(
      'https://api.example/',
    );
  });

  test('each default the README shows is what the parser gives when the variable is unset', () => {
    const shownAsValue = CONFIG_VARIABLES.filter(
      (v) => v.parse(undefined) !== undefined && !v.default.startsWith('('),
    );
    expect(shownAsValue.length).toBeGreaterThan(20);
    for (const v of shownAsValue) {
      expect([v.name, String(v.parse(undefined))]).toEqual([v.name, v.default]);
    }
  });

  test('the documented table names every variable loadConfig reads', () => {
    expect(CONFIG_VARIABLES.map((v) => v.name)).toEqual([
      'PORT',
      'HOST',
      'APP_PORT',
      'DATA_DIR',
      'DATABASE_URL',
      'BASE_URL',
      'APP_ORIGINS',
      'BODY_LIMIT',
      'DEMO_PASSWORD',
      'SEED_DEMO',
      'START_TIMING',
      'LOG_LEVEL',
      'ACCESS_TOKEN_LIFETIME',
      'REFRESH_TOKEN_LIFETIME',
      'SMTP_HOST',
      'SMTP_PORT',
      'SMTP_USER',
      'SMTP_PASS',
      'SMTP_FROM',
      'GOOGLE_CLIENT_IDS',
      'GOOGLE_JWKS_URL',
      'RECAPTCHA_SITE_KEY',
      'RECAPTCHA_SECRET_KEY',
      'RECAPTCHA_VERIFY_URL',
      'IDEMPOTENCY_WINDOW',
      'GRAPHQL_INTROSPECTION',
      'GRAPHQL_MAX_COST',
      'GRAPHQL_MAX_CONCURRENT_SEARCHES',
      'GRAPHQL_SCHEMA_AT_START',
      'LIVE_HEARTBEAT_INTERVAL',
      'WEBSOCKET_PING_INTERVAL',
      'LIVE_EVENT_LOG_SIZE',
      'LIVE_BINDING_TOKEN_LIFETIME',
      'BINARY_MAX_SIZE',
      'BINARY_DIR',
      'BINARY_URL_LIFETIME',
      'MAX_JSON_DEPTH',
      'MAX_ARRAY_LENGTH',
      'MAX_STRING_LENGTH',
      'MAX_BATCH_ENTRIES',
      'MAX_SEARCH_PARAMETERS',
      'MAX_SEARCH_VALUES',
      'MAX_INDEX_VALUES',
      'REQUEST_TIMEOUT',
      'TRUST_PROXY',
      'PGLITE_MAX_QUEUE_WAIT',
    ]);
  });

  test('a bad value stops the real server at start-up: one line naming it, exit 1, no database opened', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-config-error-'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', BODY_LIMIT: '16MB' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(
        "Configuration error: BODY_LIMIT must be a positive whole number of bytes, got '16MB'",
      );
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
