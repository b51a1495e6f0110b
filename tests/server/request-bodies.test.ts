// Request bodies, decided once for the whole server (src/server/request-bodies.ts): JSON
// under application/json, application/fhir+json, application/scim+json and
// application/json-patch+json (with parameters) on every route group; a malformed one is a 400
// OperationOutcome, an unknown type a 415 naming the type received and the types accepted. Forms,
// text and raw bytes stay where they are taken. Real HTTP; PGlite, PostgreSQL with TEST_DATABASE_URL.
import crypto from 'node:crypto';
import type { OperationOutcome } from '@medplum/fhirtypes';
import { databases } from './support/test-databases';
import { startTestServer } from './support/test-server';
import type { TestServer } from './support/test-server';

const JSON_TYPES = [
  'application/json',
  'application/fhir+json',
  'application/scim+json',
  'application/json-patch+json',
];
const JSON_LIST =
  'application/json, application/fhir+json, application/scim+json, application/json-patch+json';

/** One route of each group that takes JSON; `form` when the group also takes forms. */
const ROUTES: { path: string; form: boolean }[] = [
  { path: 'auth/login', form: false },
  { path: 'oauth2/logout', form: true },
  { path: `admin/projects/${crypto.randomUUID()}/invite`, form: false },
  { path: 'email/v1/send', form: false },
  { path: 'fhircast/STU3', form: true },
  { path: 'fhir/R4/$graphql', form: false },
  { path: 'fhir/R4/Patient', form: true },
  { path: 'fhir/R4/Agent/$push?identifier=a|b', form: false },
  { path: 'fhir/R4/Patient/$export', form: false },
];

interface Answer {
  status: number;
  body: unknown;
}

function textOf(body: unknown): string | undefined {
  return (body as OperationOutcome).issue?.[0]?.details?.text;
}

describe.each(databases())(
  'request bodies, one rule for the whole server (issue #20) on %s',
  (_engine, kind) => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer(kind);
    });

    afterAll(async () => {
      await server.close();
    });

    async function send(
      path: string,
      contentType: string | undefined,
      body: string,
      method = 'POST',
    ): Promise<Answer> {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: contentType ? { 'content-type': contentType } : {},
        body,
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    }

    test.each(ROUTES)(
      '$path: an unknown type is a 415 naming it and the types accepted',
      async ({ path, form }) => {
        const answer = await send(path, 'text/xml; charset=utf-8', '<login/>');
        expect(answer.status).toBe(415);
        expect(answer.body).toMatchObject({
          resourceType: 'OperationOutcome',
          issue: [{ code: 'not-supported' }],
        });
        const accepted = form
          ? `${JSON_LIST} or application/x-www-form-urlencoded`
          : JSON_LIST.replace(/, (?=[^,]*$)/, ' or ');
        expect(textOf(answer.body)).toBe(
          `Unsupported content type 'text/xml; charset=utf-8': send ${accepted}`,
        );
      },
    );

    test.each(ROUTES)(
      '$path: malformed JSON under every JSON type is a 400 OperationOutcome',
      async ({ path }) => {
        for (const type of [...JSON_TYPES, 'application/fhir+json; charset=UTF-8']) {
          const answer = await send(path, type, '{"email": ');
          expect({ type, status: answer.status }).toEqual({ type, status: 400 });
          expect(answer.body).toMatchObject({
            resourceType: 'OperationOutcome',
            issue: [{ code: 'invalid' }],
          });
          expect(textOf(answer.body)).toMatch(/^Malformed JSON: /);
        }
      },
    );

    test('a body without a Content-Type is a 415 saying none was sent', async () => {
      const response = await fetch(`${server.baseUrl}auth/login`, {
        method: 'POST',
        body: new Uint8Array([123, 125]),
      });
      expect(response.status).toBe(415);
      expect(textOf(await response.json())).toMatch(
        /^Unsupported content type \(none\): send application\/json/,
      );
    });

    test('a request without a body is not refused for the type it names', async () => {
      const answer = await send('oauth2/logout', 'text/xml', '');
      // The route's own answer: logging out needs a signed-in caller.
      expect(answer.status).toBe(401);
    });

    test('every JSON type, with or without charset, reaches the route (auth/method answers {})', async () => {
      for (const type of [...JSON_TYPES, 'application/scim+json; charset=utf-8', 'Application/FHIR+JSON']) {
        const answer = await send('auth/method', type, JSON.stringify({ email: 'someone@nowhere.example' }));
        expect({ type, status: answer.status, body: answer.body }).toEqual({ type, status: 200, body: {} });
      }
    });

    test('an empty body under a JSON type is no body: the route says what it needs', async () => {
      const answer = await send('auth/login', 'application/fhir+json', '');
      expect(answer.status).toBe(400);
      expect(textOf(answer.body)).toBe('The request body must be a JSON object');
    });

    test('forms stay where they are taken: oauth2/token and _search take them, auth/login refuses them', async () => {
      const token = await send('oauth2/token', 'application/x-www-form-urlencoded', 'grant_type=nonsense');
      expect(token.status).toBe(400);
      expect(token.body).toEqual({
        error: 'unsupported_grant_type',
        error_description: "Unsupported grant_type 'nonsense'",
      });
      const tokenAsJson = await send(
        'oauth2/token',
        'application/fhir+json',
        '{"grant_type":"client_credentials"}',
      );
      expect(tokenAsJson.body).toEqual({
        error: 'invalid_request',
        error_description: 'Send the token request as application/x-www-form-urlencoded',
      });
      const search = await send('fhir/R4/Patient/_search', 'application/x-www-form-urlencoded', '_count=1');
      expect(search.status).toBe(200);
      expect(search.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
      const login = await send('auth/login', 'application/x-www-form-urlencoded', 'email=a%40b.example');
      expect(login.status).toBe(415);
    });

    test('keyvalue takes every body to the route, which asks for a user first (and, as Medplum, refuses a value that is not text/plain with 400: keyvalue.test.ts)', async () => {
      for (const [type, body] of [
        ['application/json', '"dark"'],
        ['text/xml', '<dark/>'],
      ]) {
        const answer = await send('keyvalue/v1/theme', type, body, 'PUT');
        expect(answer.status).toBe(401);
      }
    });

    test('a path no route serves answers 404 whatever the type of its body', async () => {
      const answer = await send('keyvalue/v1/', 'text/xml', '<dark/>', 'PUT');
      expect(answer.status).toBe(404);
      const other = await send('no/such/route', 'application/x-unknown', 'x', 'POST');
      expect(other.status).toBe(404);
    });

    test('Binary still takes raw bodies of any type, JSON included, as bytes', async () => {
      for (const [type, content] of [
        ['application/json', '{"not": "parsed"'],
        ['text/xml', '<x/>'],
        ['application/octet-stream', '\u0000\u0001'],
      ]) {
        const created = await send('fhir/R4/Binary', type, content);
        expect({ type, status: created.status }).toEqual({ type, status: 201 });
        const id = (created.body as { id: string }).id;
        const read = await fetch(`${server.fhirUrl}Binary/${id}`);
        expect(read.headers.get('content-type')).toContain(type);
        expect(await read.text()).toBe(content);
      }
    });
  },
);
