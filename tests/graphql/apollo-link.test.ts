// The app's Apollo link chain on its own (src/graphql"), with a fake transport and a fake
// session: the bearer token on every request; a 401 renews once (shared by concurrent 401s) and retries
// once; SPEC §9 retries (3 attempts, 200 ms apart) for status >= 500 and network failures; SPEC §8
// OperationOutcome text on errors; the resourceType/id cache.
import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import { gql } from '@apollo/client';
import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import { createGraphqlClient, GRAPHQL_RETRY_DELAY_MS } from '../../src/graphql';
import type { GraphqlSession } from '../../src/graphql';
import { CommunicationListDocument } from '../../src/graphql/generated/operations';
import { OperationOutcomeError } from '../../src/fhir/outcomes';

const FHIR_BASE = 'https://api.test/fhir/R4/';

interface SentRequest {
  url: string;
  authorization: string | undefined;
  body: { query: string; variables?: Record<string, unknown>; operationName?: string };
}

type Responder = (request: SentRequest) => Response | Promise<Response>;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const outcome = (text: string, code: OperationOutcomeIssue['code'] = 'invalid'): OperationOutcome => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code, details: { text } }],
});

/** A transport answering from a script, one responder per request in order, recording each request. */
function scriptedTransport(...script: Responder[]) {
  const requests: SentRequest[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const request: SentRequest = {
      url: String(input),
      authorization: headers.get('authorization') ?? undefined,
      body: JSON.parse(String(init?.body)) as SentRequest['body'],
    };
    requests.push(request);
    const responder = script.shift();
    if (!responder) {
      throw new Error(`unexpected request #${requests.length}`);
    }
    return responder(request);
  }) as typeof globalThis.fetch;
  return { fetch, requests };
}

/** A session whose renewal swaps the token, counting renewals; `renewal` can hold one open. */
function fakeSession(initial = 'token-1') {
  let token: string | undefined = initial;
  let release: (() => void) | undefined;
  const session = {
    renewals: [] as (string | undefined)[],
    refreshIfExpiredCalls: 0,
    holdRenewal: false,
    failRenewal: false,
    getAccessToken: () => token,
    refreshIfExpired: async () => {
      session.refreshIfExpiredCalls++;
    },
    handleUnauthorized: async (used: string | undefined) => {
      session.renewals.push(used);
      if (session.holdRenewal) {
        await new Promise<void>((resolve) => (release = resolve));
      }
      if (session.failRenewal) {
        token = undefined;
        throw new OperationOutcomeError(outcome('Unauthenticated', 'login'));
      }
      token = `token-${session.renewals.length + 1}`;
    },
    unauthenticatedAfterRetry: () => new OperationOutcomeError(outcome('Unauthenticated', 'login')),
    releaseRenewal: () => release?.(),
  } satisfies GraphqlSession & Record<string, unknown>;
  return session;
}

const ok =
  (data: unknown): Responder =>
  () =>
    json({ data });
const status =
  (code: number, body: unknown = outcome(`status ${code}`)): Responder =>
  () =>
    json(body, code);
const networkFailure: Responder = () => {
  throw new TypeError('Failed to fetch');
};

const PATIENT_QUERY = gql`
  query PatientName($id: ID!) {
    Patient(id: $id) {
      resourceType
      id
      name {
        family
      }
    }
  }
`;
const patientData = (id: string, family = 'Garcia') => ({
  Patient: {
    __typename: 'Patient',
    resourceType: 'Patient',
    id,
    name: [{ __typename: 'HumanName', family }],
  },
});

function setup(script: Responder[], session = fakeSession()) {
  const transport = scriptedTransport(...script);
  const client = createGraphqlClient({ fhirBaseUrl: FHIR_BASE, session, fetch: transport.fetch });
  const queryPatient = (id = 'p1') =>
    client.query({ query: PATIENT_QUERY, variables: { id }, fetchPolicy: 'no-cache' });
  return { client, session, transport, queryPatient };
}

afterEach(() => {
  jest.useRealTimers();
});

describe('token header (SPEC §4)', () => {
  test('every request is a POST to {fhir base}$graphql with the current access token as a bearer header', async () => {
    const { session, transport, queryPatient } = setup([ok(patientData('p1')), ok(patientData('p2'))]);
    await expect(queryPatient('p1')).resolves.toMatchObject({ data: patientData('p1') });
    expect(transport.requests[0].url).toBe('https://api.test/fhir/R4/$graphql');
    expect(transport.requests[0].authorization).toBe('Bearer token-1');
    expect(transport.requests[0].body.operationName).toBe('PatientName');
    expect(transport.requests[0].body.variables).toEqual({ id: 'p1' });
    // The token is read per request: a renewal elsewhere is used by the next request.
    await session.handleUnauthorized('token-1');
    await queryPatient('p2');
    expect(transport.requests[1].authorization).toBe('Bearer token-2');
    expect(session.refreshIfExpiredCalls).toBe(2);
  });

  test('without a session token no Authorization header is sent', async () => {
    const session = fakeSession();
    session.getAccessToken = () => undefined;
    const { transport, queryPatient } = setup([ok(patientData('p1'))], session);
    await queryPatient();
    expect(transport.requests[0].authorization).toBeUndefined();
  });
});

describe('401: one renewal through the platform client, one retry', () => {
  test('a 401 renews the session with the token that was refused and retries once with the new token', async () => {
    const { session, transport, queryPatient } = setup([
      status(401, outcome('Unauthorized', 'login')),
      ok(patientData('p1')),
    ]);
    await expect(queryPatient()).resolves.toMatchObject({ data: patientData('p1') });
    expect(session.renewals).toEqual(['token-1']);
    expect(transport.requests.map((r) => r.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  test('a second 401 after the renewal ends the session with Unauthenticated, no third request', async () => {
    const { session, transport, queryPatient } = setup([
      status(401, outcome('Unauthorized', 'login')),
      status(401, outcome('Unauthorized', 'login')),
    ]);
    const result = queryPatient();
    await expect(result).rejects.toThrow('Unauthenticated');
    await expect(result).rejects.toBeInstanceOf(OperationOutcomeError);
    expect(session.renewals).toHaveLength(1);
    expect(transport.requests).toHaveLength(2);
  });

  test('a renewal that fails rejects with its error and sends nothing more', async () => {
    const session = fakeSession();
    session.failRenewal = true;
    const { transport, queryPatient } = setup([status(401, outcome('Unauthorized', 'login'))], session);
    await expect(queryPatient()).rejects.toThrow('Unauthenticated');
    expect(transport.requests).toHaveLength(1);
  });

  test('concurrent 401s share one renewal: never two at once, each request retried once', async () => {
    const session = fakeSession();
    session.holdRenewal = true;
    const unauthorized = status(401, outcome('Unauthorized', 'login'));
    const { transport, queryPatient } = setup(
      [
        unauthorized,
        unauthorized,
        unauthorized,
        ok(patientData('a')),
        ok(patientData('b')),
        ok(patientData('c')),
      ],
      session,
    );
    const results = Promise.all([queryPatient('a'), queryPatient('b'), queryPatient('c')]);
    // All three 401s arrive while the one renewal is still running.
    await waitFor(() => transport.requests.length === 3 && session.renewals.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(session.renewals).toEqual(['token-1']);
    session.releaseRenewal();
    const answers = await results;
    expect(answers.map((a) => (a.data as ReturnType<typeof patientData>).Patient.id).sort()).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(session.renewals).toHaveLength(1);
    expect(transport.requests.slice(3).map((r) => r.authorization)).toEqual([
      'Bearer token-2',
      'Bearer token-2',
      'Bearer token-2',
    ]);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(condition()).toBe(true);
}

/** Lets promises and rxjs chains settle under fake timers without moving the clock. */
async function flush(): Promise<void> {
  await jest.advanceTimersByTimeAsync(0);
}

describe('SPEC §9 retries: 3 attempts, 200 ms apart', () => {
  test('status >= 500 is retried 200 ms later, twice at most, and succeeds on the third attempt', async () => {
    jest.useFakeTimers();
    const { transport, queryPatient } = setup([status(500), status(503), ok(patientData('p1'))]);
    const result = queryPatient();
    await flush();
    expect(transport.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(GRAPHQL_RETRY_DELAY_MS - 1);
    expect(transport.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(transport.requests).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(GRAPHQL_RETRY_DELAY_MS - 1);
    expect(transport.requests).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(transport.requests).toHaveLength(3);
    await expect(result).resolves.toMatchObject({ data: patientData('p1') });
  });

  test('after 3 failed attempts the last 5xx is the error, with the OperationOutcome text; no 4th request', async () => {
    jest.useFakeTimers();
    const { transport, queryPatient } = setup([
      status(500),
      status(502),
      status(500, outcome('Internal server error', 'exception')),
    ]);
    const result = queryPatient();
    const settled = result.catch((err: unknown) => err);
    await jest.advanceTimersByTimeAsync(10 * GRAPHQL_RETRY_DELAY_MS);
    const error = await settled;
    expect(error).toBeInstanceOf(OperationOutcomeError);
    expect((error as Error).message).toBe('Internal server error');
    expect(transport.requests).toHaveLength(3);
  });

  test('a network failure is retried 200 ms later', async () => {
    jest.useFakeTimers();
    const { transport, queryPatient } = setup([networkFailure, ok(patientData('p1'))]);
    const result = queryPatient();
    await flush();
    expect(transport.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(GRAPHQL_RETRY_DELAY_MS);
    expect(transport.requests).toHaveLength(2);
    await expect(result).resolves.toMatchObject({ data: patientData('p1') });
  });

  test('three network failures reject with the network error', async () => {
    jest.useFakeTimers();
    const { transport, queryPatient } = setup([networkFailure, networkFailure, networkFailure]);
    const settled = queryPatient().catch((err: unknown) => err);
    await jest.advanceTimersByTimeAsync(10 * GRAPHQL_RETRY_DELAY_MS);
    expect(await settled).toMatchObject({ message: 'Failed to fetch' });
    expect(transport.requests).toHaveLength(3);
  });

  test('4xx answers are not retried', async () => {
    const { transport, queryPatient } = setup([status(400, outcome('Query too deep'))]);
    await expect(queryPatient()).rejects.toThrow('Query too deep');
    expect(transport.requests).toHaveLength(1);
  });

  test('a mutation is not retried on 5xx: the write may have happened', async () => {
    const { client, transport } = setup([status(503)]);
    const mutation = gql`
      mutation Create {
        CommunicationCreate(res: { resourceType: "Communication", status: "completed" }) {
          id
        }
      }
    `;
    await expect(client.mutate({ mutation })).rejects.toBeInstanceOf(OperationOutcomeError);
    expect(transport.requests).toHaveLength(1);
  });
});

describe('SPEC §8: OperationOutcome errors surfaced with their text', () => {
  test('a 400 OperationOutcome becomes an OperationOutcomeError whose message is the issues joined with "; "', async () => {
    const body = {
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'invalid',
          details: { text: 'Cannot query field "bogus" on type "Patient".' },
        },
        { severity: 'error', code: 'invalid', details: { text: 'Unknown argument "foo".' } },
      ],
    };
    const { queryPatient } = setup([status(400, body)]);
    const error = await queryPatient().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(OperationOutcomeError);
    expect((error as OperationOutcomeError).message).toBe(
      'Cannot query field "bogus" on type "Patient".; Unknown argument "foo".',
    );
    expect((error as OperationOutcomeError).outcome).toEqual(body);
  });

  test('a non-OperationOutcome error body stays Apollo’s ServerError', async () => {
    const { queryPatient } = setup([() => new Response('<html>bad gateway</html>', { status: 404 })]);
    const error = await queryPatient().catch((err: unknown) => err);
    expect(ServerError.is(error)).toBe(true);
  });

  test('a field error carries the text of its extensions.outcome', async () => {
    const { queryPatient } = setup([
      () =>
        json({
          data: { Patient: null },
          errors: [
            {
              message: 'resolver failed',
              path: ['Patient'],
              extensions: { status: 404, outcome: outcome('Not found', 'not-found') },
            },
          ],
        }),
    ]);
    const error = await queryPatient().catch((err: unknown) => err);
    expect(CombinedGraphQLErrors.is(error)).toBe(true);
    expect((error as CombinedGraphQLErrors).errors.map((e) => e.message)).toEqual(['Not found']);
  });
});

describe('cache keyed by resourceType and id', () => {
  test('a resource met in two answers is one cache entry "Type/id", updated by the later answer', async () => {
    const sender = (family: string) => ({
      __typename: 'Practitioner',
      resourceType: 'Practitioner',
      id: 'pr1',
      name: [{ __typename: 'HumanName', given: ['Lee'], family }],
      photo: null,
    });
    const message = (id: string, family: string) => ({
      __typename: 'Communication',
      resourceType: 'Communication',
      id,
      meta: { __typename: 'Meta', lastUpdated: '2026-01-01T00:00:00Z' },
      status: 'completed',
      partOf: null,
      category: null,
      sent: '2026-01-01T00:00:00Z',
      received: null,
      sender: {
        __typename: 'Reference',
        reference: 'Practitioner/pr1',
        display: null,
        resource: sender(family),
      },
      payload: [{ __typename: 'CommunicationPayload', contentString: 'Hello', contentAttachment: null }],
    });
    // A thread header with one page of its messages, as CommunicationList answers it.
    const thread = (id: string, messages: unknown[]) => ({
      __typename: 'Communication',
      resourceType: 'Communication',
      id,
      status: 'in-progress',
      topic: null,
      sent: null,
      subject: null,
      recipient: null,
      messages,
    });
    const { client } = setup([
      ok({ CommunicationList: [thread('t1', [message('c1', 'Chen')])] }),
      ok({ CommunicationList: [thread('t2', [message('c2', 'Chen-Wu')])] }),
    ]);
    await client.query({ query: CommunicationListDocument, variables: { subject: 'Patient/a' } });
    await client.query({ query: CommunicationListDocument, variables: { subject: 'Patient/b' } });
    const store = client.cache.extract() as Record<string, Record<string, unknown>>;
    expect(Object.keys(store).sort()).toEqual([
      'Communication/c1',
      'Communication/c2',
      'Communication/t1',
      'Communication/t2',
      'Practitioner/pr1',
      'ROOT_QUERY',
    ]);
    expect(store['Practitioner/pr1'].name).toEqual([
      { __typename: 'HumanName', given: ['Lee'], family: 'Chen-Wu' },
    ]);
    // Data types stay inside their resource.
    expect(store['Communication/c1'].sender).toMatchObject({ resource: { __ref: 'Practitioner/pr1' } });
  });
});
