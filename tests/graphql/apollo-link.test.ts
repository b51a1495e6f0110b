// The app's Apollo link chain over the platform client's own transport, with a scripted fetch under a
// real BloomClient: every GraphQL request goes through client.fetch, so it carries the session's
// bearer token, a 401 renews the session once through the client's token manager (shared by
// concurrent 401s) and retries once, and the client's retry policy applies (SPEC §4, §9: 5xx 200 ms
// apart, 429 after Retry-After, network failures with backoff and the offline event; a mutation is
// never sent twice after a 5xx); SPEC §8 OperationOutcome text on errors; the resourceType/id cache.
import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import { gql } from '@apollo/client';
import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import { BloomClient } from '../../src/client';
import { RETRY_DELAY } from '../../src/client/retry-policy';
import { ACTIVE_LOGIN_KEY, MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import type { LoginState } from '../../src/client/storage';
import { createGraphqlClient } from '../../src/graphql';
import { CommunicationListDocument } from '../../src/graphql/generated/operations';
import { OperationOutcomeError } from '../../src/fhir/outcomes';
import { makeJwt } from '../client/support/tokens';

const BASE = 'https://api.test/';
const FHIR_BASE = `${BASE}fhir/R4/`;

interface SentRequest {
  url: string;
  authorization: string | undefined;
  body: { query: string; variables?: Record<string, unknown>; operationName?: string };
}

type Responder = (request: SentRequest) => Response | Promise<Response>;

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

const outcome = (text: string, code: OperationOutcomeIssue['code'] = 'invalid'): OperationOutcome => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code, details: { text } }],
});

const ISSUED_AT = Math.floor(Date.now() / 1000);

/** token-N as the server would issue it: a JWT that expires in an hour. */
function token(n: number): string {
  const iat = ISSUED_AT;
  return makeJwt({ login_id: `login-${n}`, sub: 'user-1', profile: 'Patient/maria', iat, exp: iat + 3600 });
}

/**
 * A transport under a real BloomClient: $graphql answered from a script (one responder per request, in
 * order, each recorded), the token endpoint issuing token 2, 3... (unless `refuseRenewal`), auth/me
 * answering the session.
 */
function scriptedTransport(...script: Responder[]) {
  const requests: SentRequest[] = [];
  const renewals: URLSearchParams[] = [];
  const state = { refuseRenewal: false, holdRenewal: undefined as Promise<void> | undefined };
  const fetch = async (input: string, init?: RequestInit): Promise<Response> => {
    if (input.endsWith('oauth2/token')) {
      renewals.push(new URLSearchParams(String(init?.body)));
      await state.holdRenewal;
      if (state.refuseRenewal)
        return json({ error: 'invalid_grant', error_description: 'Invalid token' }, 400);
      return json({
        token_type: 'Bearer',
        access_token: token(renewals.length + 1),
        refresh_token: 'refresh-2',
      });
    }
    if (input.endsWith('auth/me')) {
      return json({ profile: { resourceType: 'Patient', id: 'maria' } });
    }
    const headers = new Headers(init?.headers);
    const request: SentRequest = {
      url: input,
      authorization: headers.get('authorization') ?? undefined,
      body: JSON.parse(String(init?.body)) as SentRequest['body'],
    };
    requests.push(request);
    const responder = script.shift();
    if (!responder) {
      throw new Error(`unexpected request #${requests.length}`);
    }
    return responder(request);
  };
  return { fetch, requests, renewals, state };
}

/** A BloomClient signed in with token 1 (and a refresh token) over the scripted transport. */
function signedInClient(transport: ReturnType<typeof scriptedTransport>, signedIn = true): BloomClient {
  const storage = new PrefixedStorage(new MemoryStorage());
  if (signedIn) {
    storage.setObject<LoginState>(ACTIVE_LOGIN_KEY, {
      accessToken: token(1),
      refreshToken: 'refresh-1',
      profile: { reference: 'Patient/maria' },
    });
  }
  return new BloomClient({ baseUrl: BASE, fetch: transport.fetch, storage });
}

const ok =
  (data: unknown): Responder =>
  () =>
    json({ data });
const status =
  (
    code: number,
    body: unknown = outcome(`status ${code}`),
    headers: Record<string, string> = {},
  ): Responder =>
  () =>
    json(body, code, headers);
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

function setup(script: Responder[], { signedIn = true } = {}) {
  const transport = scriptedTransport(...script);
  const session = signedInClient(transport, signedIn);
  const client = createGraphqlClient({ fhirBaseUrl: FHIR_BASE, session });
  const queryPatient = (id = 'p1') =>
    client.query({ query: PATIENT_QUERY, variables: { id }, fetchPolicy: 'no-cache' });
  return { client, session, transport, queryPatient };
}

afterEach(() => {
  jest.useRealTimers();
});

describe('token header (SPEC §4)', () => {
  test('every request is a POST to {fhir base}$graphql with the session’s access token as a bearer header', async () => {
    const { session, transport, queryPatient } = setup([ok(patientData('p1')), ok(patientData('p2'))]);
    await expect(queryPatient('p1')).resolves.toMatchObject({ data: patientData('p1') });
    expect(transport.requests[0].url).toBe('https://api.test/fhir/R4/$graphql');
    expect(transport.requests[0].authorization).toBe(`Bearer ${token(1)}`);
    expect(transport.requests[0].body.operationName).toBe('PatientName');
    expect(transport.requests[0].body.variables).toEqual({ id: 'p1' });
    // The token is read per request: a login set elsewhere is used by the next request.
    await session.setActiveLogin({ accessToken: token(7), profile: { reference: 'Patient/maria' } });
    await queryPatient('p2');
    expect(transport.requests[1].authorization).toBe(`Bearer ${token(7)}`);
  });

  test('without a session no Authorization header is sent', async () => {
    const { transport, queryPatient } = setup([ok(patientData('p1'))], { signedIn: false });
    await queryPatient();
    expect(transport.requests[0].authorization).toBeUndefined();
  });
});

describe('401: one renewal through the platform client’s token manager, one retry', () => {
  test('a 401 renews the session with the refresh token and retries once with the new token', async () => {
    const { session, transport, queryPatient } = setup([
      status(401, outcome('Unauthorized', 'login')),
      ok(patientData('p1')),
    ]);
    await expect(queryPatient()).resolves.toMatchObject({ data: patientData('p1') });
    expect(transport.renewals.map((form) => form.get('refresh_token'))).toEqual(['refresh-1']);
    expect(transport.requests.map((r) => r.authorization)).toEqual([
      `Bearer ${token(1)}`,
      `Bearer ${token(2)}`,
    ]);
    expect(session.getAccessToken()).toBe(token(2));
  });

  test('a second 401 after the renewal ends the session with Unauthenticated, no third request', async () => {
    const { session, transport, queryPatient } = setup([
      status(401, outcome('Unauthorized', 'login')),
      status(401, outcome('Unauthorized', 'login')),
    ]);
    const result = queryPatient();
    await expect(result).rejects.toThrow('Unauthenticated');
    await expect(result).rejects.toBeInstanceOf(OperationOutcomeError);
    expect(transport.renewals).toHaveLength(1);
    expect(transport.requests).toHaveLength(2);
    expect(session.getActiveLogin()).toBeUndefined();
  });

  test('a renewal the server refuses rejects with Unauthenticated and sends nothing more', async () => {
    const { transport, queryPatient } = setup([status(401, outcome('Unauthorized', 'login'))]);
    transport.state.refuseRenewal = true;
    await expect(queryPatient()).rejects.toThrow('Unauthenticated');
    expect(transport.requests).toHaveLength(1);
  });

  test('concurrent 401s share one renewal: never two at once, each request retried once', async () => {
    const unauthorized = status(401, outcome('Unauthorized', 'login'));
    const { transport, queryPatient } = setup([
      unauthorized,
      unauthorized,
      unauthorized,
      ok(patientData('a')),
      ok(patientData('b')),
      ok(patientData('c')),
    ]);
    let release: () => void = () => undefined;
    transport.state.holdRenewal = new Promise<void>((resolve) => (release = resolve));
    const results = Promise.all([queryPatient('a'), queryPatient('b'), queryPatient('c')]);
    // All three 401s arrive while the one renewal is still running.
    await waitFor(() => transport.requests.length === 3 && transport.renewals.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(transport.renewals).toHaveLength(1);
    release();
    const answers = await results;
    expect(answers.map((a) => (a.data as ReturnType<typeof patientData>).Patient.id).sort()).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(transport.renewals).toHaveLength(1);
    expect(transport.requests.slice(3).map((r) => r.authorization)).toEqual([
      `Bearer ${token(2)}`,
      `Bearer ${token(2)}`,
      `Bearer ${token(2)}`,
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

describe('the client’s retry policy (SPEC §4, §9: 3 attempts; 5xx 200 ms apart; 429 after Retry-After)', () => {
  test('status >= 500 is retried 200 ms later, twice at most, and succeeds on the third attempt', async () => {
    jest.useFakeTimers();
    const { transport, queryPatient } = setup([status(500), status(503), ok(patientData('p1'))]);
    const result = queryPatient();
    await flush();
    expect(transport.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(RETRY_DELAY - 1);
    expect(transport.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(transport.requests).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(RETRY_DELAY - 1);
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
    const settled = queryPatient().catch((err: unknown) => err);
    await jest.advanceTimersByTimeAsync(10 * RETRY_DELAY);
    const error = await settled;
    expect(error).toBeInstanceOf(OperationOutcomeError);
    expect((error as Error).message).toBe('Internal server error');
    expect(transport.requests).toHaveLength(3);
  });

  test('a 429 is retried after its Retry-After, not sooner', async () => {
    jest.useFakeTimers();
    const { transport, queryPatient } = setup([
      status(429, outcome('Too many requests', 'throttled'), { 'retry-after': '3' }),
      ok(patientData('p1')),
    ]);
    const result = queryPatient();
    await flush();
    await jest.advanceTimersByTimeAsync(2999);
    expect(transport.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(transport.requests).toHaveLength(2);
    await expect(result).resolves.toMatchObject({ data: patientData('p1') });
  });

  test('network failures back off (200 ms, then 400 ms) and the second one tells the app it is offline', async () => {
    jest.useFakeTimers();
    const { session, transport, queryPatient } = setup([
      networkFailure,
      networkFailure,
      ok(patientData('p1')),
    ]);
    const offline = jest.fn();
    session.addEventListener('offline', offline);
    const result = queryPatient();
    await flush();
    expect(transport.requests).toHaveLength(1);
    expect(offline).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(RETRY_DELAY);
    expect(transport.requests).toHaveLength(2);
    expect(offline).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(2 * RETRY_DELAY - 1);
    expect(transport.requests).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toMatchObject({ data: patientData('p1') });
  });

  test('three network failures reject with the network error', async () => {
    jest.useFakeTimers();
    const { transport, queryPatient } = setup([networkFailure, networkFailure, networkFailure]);
    const settled = queryPatient().catch((err: unknown) => err);
    await jest.advanceTimersByTimeAsync(10 * RETRY_DELAY);
    expect(await settled).toMatchObject({ message: 'Failed to fetch' });
    expect(transport.requests).toHaveLength(3);
  });

  test('4xx answers are not retried', async () => {
    const { transport, queryPatient } = setup([status(400, outcome('Query too deep'))]);
    await expect(queryPatient()).rejects.toThrow('Query too deep');
    expect(transport.requests).toHaveLength(1);
  });

  const CREATE = gql`
    mutation Create {
      CommunicationCreate(res: { resourceType: "Communication", status: "completed" }) {
        id
      }
    }
  `;

  test('a mutation is not retried on 5xx: the write may have happened', async () => {
    const { client, transport } = setup([status(503)]);
    await expect(client.mutate({ mutation: CREATE })).rejects.toBeInstanceOf(OperationOutcomeError);
    expect(transport.requests).toHaveLength(1);
  });

  test('a mutation refused with 429 is sent again after Retry-After: nothing was done', async () => {
    const { client, transport } = setup([
      status(429, outcome('Too many requests', 'throttled'), { 'retry-after': '0' }),
      ok({ CommunicationCreate: { __typename: 'Communication', id: 'c1' } }),
    ]);
    await expect(client.mutate({ mutation: CREATE })).resolves.toMatchObject({
      data: { CommunicationCreate: { id: 'c1' } },
    });
    expect(transport.requests).toHaveLength(2);
  });

  test('an aborted query rejects with "Request aborted" while it waits to retry, and is not sent again', async () => {
    jest.useFakeTimers();
    const { client, transport } = setup([status(503), ok(patientData('p1'))]);
    const controller = new AbortController();
    const settled = client
      .query({
        query: PATIENT_QUERY,
        variables: { id: 'p1' },
        fetchPolicy: 'no-cache',
        context: { fetchOptions: { signal: controller.signal } },
      })
      .catch((err: unknown) => err);
    await flush();
    expect(transport.requests).toHaveLength(1);
    controller.abort();
    await jest.advanceTimersByTimeAsync(10 * RETRY_DELAY);
    expect(await settled).toMatchObject({ name: 'AbortError', message: 'Request aborted' });
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
