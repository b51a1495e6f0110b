// Property-based fuzzing over HTTP and WebSockets (fast-check, fixed seed, bounded runs): REST
// bodies, search parameters, GraphQL documents, JSON Patch, FHIRcast events and WebSocket frames.
// Whatever arrives, the server never answers 5xx, never shows a stack trace or SQL, answers
// /healthcheck within 1 s throughout (a poller runs the whole time), and a refused write stores
// nothing. Prints the figures the README's security section quotes. PGlite and PostgreSQL.
import fc from 'fast-check';
import WebSocket from 'ws';
import type { Bundle, Patient } from '@medplum/fhirtypes';
import { addMembership, createProject, createUser, signIn } from '../server/auth/support/auth-fixtures';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';

const SEED = 20261127;
const RUNS = 60;
const HEALTH_BUDGET_MS = 1000;
/**
 * Phases not held to the budget (their worst is printed). 'start' is the first beforeAll: the server
 * opening its database (PGlite's worker loads the template) and building the GraphQL schema in the
 * background (its final assembly is one synchronous step), while nothing is fuzzed yet.
 */
const UNBOUNDED_PHASES = ['start'];

/** What no answer may contain: a Node stack frame, a source path, SQL or a PostgreSQL message. */
const LEAKS = [
  /\n\s+at \S+ \(/,
  /node_modules/,
  /\.ts:\d+:\d+/,
  /\bSELECT\b[^"]*\bFROM\b/,
  /\bINSERT INTO\b/,
  /syntax error at or near/,
  /relation "[^"]+" does not exist/,
];

interface Answer {
  status: number;
  text: string;
}

/**
 * Polls /healthcheck every 100 ms and keeps the slowest answer; a failed poll counts as infinite.
 * The server runs in this process, so a blocked event loop would also delay the poller's own
 * timer (a poll sent late, answered fast): each poll is timed from the moment it was due, as a
 * client in another process would see it.
 */
class HealthPoller {
  worst = 0;
  polls = 0;
  /** The slowest answer per phase (the test running when it was sent). */
  readonly worstByPhase = new Map<string, number>();
  phase = 'start';
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private due = 0;

  constructor(private readonly url: string) {}

  start(): void {
    this.due = performance.now() + 100;
    this.timer = setInterval(() => void this.poll(), 100);
  }

  private async poll(): Promise<void> {
    // The tick that should have come first: a late one (a blocked event loop) is timed from there.
    const started = Math.min(this.due, performance.now());
    this.due = performance.now() + 100;
    if (this.running) {
      return;
    }
    this.running = true;
    const phase = this.phase;
    let elapsed = Infinity;
    try {
      const response = await fetch(this.url, { signal: AbortSignal.timeout(10_000) });
      await response.text();
      elapsed = response.ok ? performance.now() - started : Infinity;
    } catch {
      elapsed = Infinity;
    } finally {
      this.worst = Math.max(this.worst, elapsed);
      this.worstByPhase.set(phase, Math.max(this.worstByPhase.get(phase) ?? 0, elapsed));
      this.polls++;
      this.running = false;
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Strings that reach every odd corner: controls, surrogate halves, bidi marks, quotes, SQL. */
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    '\ud800',
    '\udfff',
    '\u202e',
    "'; DROP TABLE resources; --",
    '%00',
    '\\',
    '"',
    '$',
    '🌸',
    'a'.repeat(2000),
  ),
);

const nastyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(nastyString, fc.constantFrom('resourceType', 'id', 'meta', '__proto__')),
      tie('value'),
      {
        maxKeys: 4,
      },
    ),
  ),
})).value;

/** Bodies shaped like resources (so they get past the first checks) with nasty content inside. */
const resourceBody = fc.record(
  {
    resourceType: fc.oneof(fc.constantFrom('Patient', 'Observation', 'Bundle', 'Binary'), nastyString),
    id: nastyString,
    name: nastyJson,
    status: nastyString,
    code: nastyJson,
    extension: nastyJson,
    meta: nastyJson,
  },
  { requiredKeys: ['resourceType'] },
);

/** Raw text bodies: malformed JSON, deep nesting, escapes. */
const rawBody = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.integer({ min: 1, max: 20_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 1, max: 20_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  nastyString.map((s) => `{"resourceType":"Patient","name":[{"family":${JSON.stringify(s)}}]}`),
  fc.constantFrom(
    '{"resourceType":"Patient","name":[{"family":"\\ud800"}]}',
    '{"a":"\\u0000"}',
    '\u0000',
    '',
  ),
);

const SEARCH_NAMES = [
  'name',
  'code',
  'code:text',
  '_id',
  '_count',
  '_sort',
  '_filter',
  'subject:Patient.name',
  'date',
  '_include',
];
const searchQuery = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom(...SEARCH_NAMES), nastyString),
    fc.oneof(nastyString, fc.constantFrom('ge2020', 'a,b,c', 'x|y')),
  ),
  { maxLength: 40 },
);

const graphqlDocument = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc
    .integer({ min: 1, max: 3000 })
    .map((n) => `{ ${'PatientList { name { '.repeat(n)}family${' } }'.repeat(n)} }`),
  fc
    .integer({ min: 1, max: 3000 })
    .map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: PatientList { id }`).join(' ')} }`),
  nastyString.map((s) => `{ PatientList(name: ${JSON.stringify(s)}) { id } }`),
  fc.constantFrom('query { PatientList(_count: 1000000) { id } }', 'mutation { x }'),
);

/** Introspection over the whole schema (8,230 types), answered in slices: held to the budget too. */
const introspectionDocument = fc.constantFrom(
  '{ __schema { types { name } } }',
  '{ __schema { types { name fields { name } } } }',
  '{ __schema { ...S } } fragment S on __Schema { types { name } }',
  '{ __schema { queryType { name } mutationType { name } } }',
  '{ __type(name: "Patient") { name fields { name } } }',
  '{ __type(name: "NoSuchType") { name } }',
);

const patchOperation = fc.record({
  op: fc.oneof(fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test'), nastyString),
  path: fc.oneof(
    fc.constantFrom(
      '/name',
      '/name/0',
      '/name/-',
      '/__proto__/admin',
      '/constructor/prototype',
      '/id',
      '/meta',
      '',
      '/',
    ),
    nastyString,
  ),
  from: fc.oneof(fc.constantFrom('/name', '/name/0', '/__proto__'), nastyString),
  value: nastyJson,
});

const fhircastEvent = fc.record({
  timestamp: nastyString,
  id: nastyString,
  event: fc.record({
    'hub.topic': nastyString,
    'hub.event': fc.oneof(
      fc.constantFrom('Patient-open', 'DiagnosticReport-update', 'syncerror'),
      nastyString,
    ),
    context: nastyJson,
  }),
});

/** What a client may send on one socket: JSON of every protocol spoken here, and garbage. */
const websocketFrame = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  nastyJson.map((value) => JSON.stringify(value)),
  // Larger than every path's 64 KiB maxPayload: closed with 1009.
  fc.constant(`{"type":"ping","payload":"${'x'.repeat(70_000)}"}`),
  fc.integer({ min: 1, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  graphqlDocument.map((query) => JSON.stringify({ type: 'subscribe', id: '1', payload: { query } })),
  fc
    .record({ type: fc.oneof(fc.constantFrom('subscribe', 'complete', 'ping', 'pong', 'next'), nastyString) })
    .chain(({ type }) =>
      fc.record({ type: fc.constant(type), id: fc.oneof(nastyString, fc.constant('1')), payload: nastyJson }),
    )
    .map((message) => JSON.stringify(message)),
  fc.constantFrom(
    '{"type":"connection_init"}',
    '{"type":"connection_init","payload":{"token":"not-a-token"}}',
    '{"type":"subscribe","id":"1","payload":{"query":"subscription { PatientChanged { id } }"}}',
    '{"type":"subscribe","id":"1","payload":{"query":"subscription { x }"}}',
    '{"type":"bind-with-token","payload":{"token":"x"}}',
    '{"type":"bind-with-token","payload":{"token":"x","lastEventNumber":"-1"}}',
    '{"type":"unbind-from-token","payload":{"token":"x"}}',
    '{"id":"x","timestamp":"2026-11-27T00:00:00Z","event":{"hub.topic":"t","hub.event":"Patient-open"}}',
    '{}',
    'null',
    '{"type":',
  ),
);

/** Close codes that mean the server failed rather than refused: 1006 (no close frame), 1011, 4500. */
const SERVER_FAILURE_CLOSES = [1006, 1011, 4500];

describe.each(databases())('fuzzing the API (issue #23) on %s', (engine, kind) => {
  let server: TestServer;
  let health: HealthPoller;
  let maria: Patient;
  let requests = 0;
  let serverErrors = 0;
  const leaks: string[] = [];

  beforeAll(async () => {
    // As `npm start` runs it: the GraphQL schema is built in the background once the server listens.
    server = await startTestServer(kind, { GRAPHQL_SCHEMA_AT_START: 'true' });
    health = new HealthPoller(`${server.baseUrl}healthcheck`);
    health.start();
    // The first client's GraphQL request waits for that build: start-up, not a fuzzed document.
    expect((await send('POST', 'fhir/R4/$graphql', JSON.stringify({ query: '{ __typename }' }))).status).toBe(
      200,
    );
    maria = (
      await send(
        'POST',
        'fhir/R4/Patient',
        JSON.stringify({ resourceType: 'Patient', name: [{ family: 'Garcia' }] }),
      )
    ).json as Patient;
  });

  afterAll(async () => {
    health.stop();
    console.log(
      `fuzz on ${engine}: ${serverErrors} 5xx over ${requests} requests and WebSocket sessions; ` +
        `worst /healthcheck ${Math.round(health.worst)} ms over ${health.polls} polls ` +
        `(${[...health.worstByPhase].map(([phase, ms]) => `${phase} ${Math.round(ms)} ms`).join(', ')})`,
    );
    await server.close();
  });

  async function send(method: string, path: string, body?: string, contentType = 'application/fhir+json') {
    requests++;
    const response = await fetch(server.baseUrl + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': contentType },
      body,
    });
    const text = await response.text();
    if (response.status >= 500) {
      serverErrors++;
    }
    const leak = LEAKS.find((pattern) => pattern.test(text));
    if (leak) {
      leaks.push(`${method} ${path}: ${text.slice(0, 300)}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, text, json };
  }

  function expectClean(answer: Answer): void {
    expect(answer.status).toBeLessThan(500);
    for (const pattern of LEAKS) {
      expect(answer.text).not.toMatch(pattern);
    }
  }

  async function countTagged(tag: string): Promise<number> {
    const answer = await send('GET', `fhir/R4/Patient?_tag=${percent(`http://fuzz|${tag}`)}&_summary=count`);
    return (answer.json as Bundle).total ?? -1;
  }

  const params = { seed: SEED, numRuns: RUNS };

  beforeEach(() => {
    health.phase =
      expect.getState().currentTestName?.split(' on ')[1]?.split(' ').slice(1).join(' ').split(':')[0] ?? '?';
  });

  /** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser sends it). */
  function percent(text: string): string {
    return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  }

  it('REST bodies: 4xx or a whole resource, never 5xx, and a refused body stores nothing', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          resourceBody.map((b) => JSON.stringify(b)),
          rawBody,
        ),
        async (text) => {
          // Every body carries a tag, so what was stored can be counted against what was accepted.
          let body = text;
          try {
            const value = JSON.parse(text) as Record<string, unknown>;
            if (value && typeof value === 'object' && !Array.isArray(value)) {
              body = JSON.stringify({ ...value, meta: { tag: [{ system: 'http://fuzz', code: 'rest' }] } });
            }
          } catch {
            // Malformed JSON goes as it is.
          }
          const answer = await send('POST', 'fhir/R4/Patient', body);
          expectClean(answer);
          if (answer.status === 201) {
            accepted++;
          }
        },
      ),
      params,
    );
    expect(await countTagged('rest')).toBe(accepted);
  });

  it('search parameters: never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('Patient', 'Observation', ''), searchQuery, async (type, pairs) => {
        const query = pairs.map(([name, value]) => `${percent(name)}=${percent(value)}`).join('&');
        expectClean(await send('GET', `fhir/R4/${type}?${query}`));
      }),
      params,
    );
  });

  it('GraphQL documents: never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(graphqlDocument, nastyJson, async (query, variables) => {
        expectClean(await send('POST', 'fhir/R4/$graphql', JSON.stringify({ query, variables })));
      }),
      params,
    );
  });

  it('GraphQL introspection: never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(introspectionDocument, async (query) => {
        expectClean(await send('POST', 'fhir/R4/$graphql', JSON.stringify({ query })));
      }),
      { ...params, numRuns: 10 },
    );
  });

  it('JSON Patch: a refused patch changes nothing, an accepted one makes a new version', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(patchOperation, { maxLength: 4 }), async (patch) => {
        const before = (await send('GET', `fhir/R4/Patient/${maria.id}`)).json as Patient;
        const answer = await send(
          'PATCH',
          `fhir/R4/Patient/${maria.id}`,
          JSON.stringify(patch),
          'application/json-patch+json',
        );
        expectClean(answer);
        const after = (await send('GET', `fhir/R4/Patient/${maria.id}`)).json as Patient;
        if (answer.status >= 400) {
          expect(after).toEqual(before);
        }
        expect(({} as Record<string, unknown>).admin).toBeUndefined();
      }),
      params,
    );
  });

  it('FHIRcast events: never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fhircastEvent, nastyJson), nastyString, async (event, topic) => {
        expectClean(await send('POST', `fhircast/STU3/${percent(topic) || 'topic'}`, JSON.stringify(event)));
        expectClean(await send('POST', 'fhircast/STU3', JSON.stringify(event)));
      }),
      params,
    );
  });

  it('WebSocket frames: before and after auth, answered or closed with a proper code, the server stays up', async () => {
    const base = server.baseUrl.replace(/^http/, 'ws');
    // After auth: graphql-ws takes a real access token, /ws/subscriptions-r4 a real binding token.
    const project = await createProject(server.db, 'Fuzz Clinic');
    const user = await createUser(server.db);
    await addMembership(server.db, user, project, 'Practitioner');
    const accessToken = (await signIn(server.baseUrl, user.email as string)).access_token;
    const subscription = (
      await send(
        'POST',
        'fhir/R4/Subscription',
        JSON.stringify({
          resourceType: 'Subscription',
          status: 'active',
          reason: 'fuzz',
          criteria: 'Patient',
          channel: { type: 'websocket' },
        }),
      )
    ).json as { id: string };
    const binding = (await send('GET', `fhir/R4/Subscription/${subscription.id}/$get-ws-binding-token`))
      .json as { parameter: { name: string; valueString?: string }[] };
    const bindingToken = binding.parameter.find((p) => p.name === 'token')?.valueString as string;
    const authFrames: Record<string, string> = {
      'ws/graphql': JSON.stringify({ type: 'connection_init', payload: { token: accessToken } }),
      'ws/subscriptions-r4': JSON.stringify({ type: 'bind-with-token', payload: { token: bindingToken } }),
      'ws/fhircast/topic': '{"type":"ping"}',
    };
    const closes = new Map<number, number>();
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('ws/subscriptions-r4', 'ws/graphql', 'ws/fhircast/topic'),
        fc.boolean(),
        fc.array(fc.tuple(websocketFrame, fc.nat(9)), { minLength: 1, maxLength: 5 }),
        async (path, authenticated, frames) => {
          requests++;
          const socket = new WebSocket(
            base + path,
            path === 'ws/graphql' ? 'graphql-transport-ws' : undefined,
          );
          const code = await new Promise<number>((resolve) => {
            socket.on('open', () => {
              if (authenticated) socket.send(authFrames[path]);
              // One frame in ten goes as binary (closed with 1003): the text paths get most runs.
              for (const [frame, dice] of frames) socket.send(dice === 0 ? Buffer.from(frame) : frame);
              setTimeout(() => socket.close(1000), 150);
            });
            socket.on('message', (data: Buffer) => {
              answered++;
              const text = data.toString();
              if (LEAKS.some((pattern) => pattern.test(text))) {
                leaks.push(`${path}: ${text.slice(0, 300)}`);
              }
            });
            socket.on('close', (closeCode: number) => resolve(closeCode));
            socket.on('error', () => undefined);
          });
          closes.set(code, (closes.get(code) ?? 0) + 1);
          expect({ path, code, failed: SERVER_FAILURE_CLOSES.includes(code) }).toEqual({
            path,
            code,
            failed: false,
          });
          const answer = await send('GET', 'healthcheck');
          expect(answer.status).toBe(200);
        },
      ),
      { ...params, numRuns: RUNS },
    );
    console.log(
      `WebSocket fuzz: ${answered} messages answered; close codes ${[...closes]
        .sort(([a], [b]) => a - b)
        .map(([closeCode, count]) => `${closeCode}×${count}`)
        .join(', ')}`,
    );
  });

  it('leaked no stack trace or SQL, and /healthcheck answered within 1 s throughout', () => {
    expect(leaks).toEqual([]);
    expect(serverErrors).toBe(0);
    expect(health.polls).toBeGreaterThan(10);
    // Start-up is not under test (its figure is printed above); every fuzzed phase is.
    const held = [...health.worstByPhase].filter(([phase]) => !UNBOUNDED_PHASES.includes(phase));
    for (const [phase, worst] of held) {
      expect({ phase, worst: worst < HEALTH_BUDGET_MS }).toEqual({ phase, worst: true });
    }
  });
});
