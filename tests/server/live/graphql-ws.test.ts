// GraphQL subscriptions over graphql-ws at /ws/graphql: `CommunicationChanged(<search
// args>)` emits each matching created or updated resource the caller may see; the access token
// comes in the connection parameters; a missing or bad token closes the connection with 4403; an
// attachment of a Binary the subscriber may read is a signed URL.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AccessPolicy, Communication, Project } from '@medplum/fhirtypes';
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import type { Client, ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { CommunicationChangedDocument } from '../../../src/graphql/generated/operations';
import type { CommunicationChangedSubscription } from '../../../src/graphql/generated/operations';
import { Repository, systemContext } from '../../../src/server/repo';
import { addMembership, createProject, createUser, signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { uploadInto } from './support/binary-upload';
import { getLiveGraphQLSchema } from '../../../src/server/live/graphql-subscriptions';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

jest.setTimeout(60_000);

type Changed = ExecutionResult<{
  CommunicationChanged: { id: string; status: string; subject: { reference: string } };
}>;

/** Subscribes and collects results; `next()` waits for the next one. */
function collect(client: Client, query: string) {
  const results: Changed[] = [];
  const errors: unknown[] = [];
  let wake: (() => void) | undefined;
  const stop = client.subscribe<Changed['data']>(
    { query },
    {
      next: (result) => {
        results.push(result as Changed);
        wake?.();
      },
      error: (err) => {
        errors.push(err);
        wake?.();
      },
      complete: () => undefined,
    },
  );
  return {
    results,
    errors,
    stop,
    async next(timeoutMs = 8000): Promise<Changed> {
      const deadline = Date.now() + timeoutMs;
      while (results.length === 0) {
        if (errors.length > 0) throw new Error(`subscription failed: ${JSON.stringify(errors[0])}`);
        if (Date.now() > deadline) throw new Error('no result in time');
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      return results.shift() as Changed;
    },
  };
}

describe.each(databases())('issue #8 graphql-ws TypeChanged subscriptions on %s', (_engine, kind) => {
  let server: TestServer;
  let project: Project;
  let maria: Tokens;
  let aisha: Tokens;
  let practitioner: Tokens;
  let binaryDir: string;
  const clients: Client[] = [];

  const client = (connectionParams: Record<string, unknown>, onClose?: (event: unknown) => void): Client => {
    const c = createClient({
      url: `${server.baseUrl.replace('http', 'ws')}ws/graphql`,
      webSocketImpl: WebSocket,
      connectionParams,
      retryAttempts: 0,
      lazy: false,
      // The refused connections are expected in one test; their errors are asserted through 'closed'.
      onNonLazyError: () => undefined,
      on: onClose ? { closed: onClose } : undefined,
    });
    clients.push(c);
    return c;
  };

  async function post(tokens: Tokens, subject: Tokens, text: string): Promise<Communication> {
    const response = await fetch(`${server.fhirUrl}Communication`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json', authorization: `Bearer ${tokens.access_token}` },
      body: JSON.stringify({
        resourceType: 'Communication',
        status: 'completed',
        subject: { reference: subject.profile?.reference },
        payload: [{ contentString: text }],
      }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Communication;
  }

  beforeAll(async () => {
    binaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-graphql-ws-'));
    server = await startTestServer(kind, { BINARY_DIR: binaryDir }, { requireAuth: true });
    // The schema is built in slices on first use, seconds under load: built here, a subscription
    // starts within the tests' short wait instead of missing the writes that follow it.
    await getLiveGraphQLSchema();
    project = await createProject(server.db, 'GraphQL Live Clinic');
    const policy = await new Repository(server.db, systemContext(project.id)).createResource<AccessPolicy>({
      resourceType: 'AccessPolicy',
      name: 'Live patient',
      compartment: { reference: '%patient' },
      resource: [
        { resourceType: 'Patient', compartment: { reference: '%patient' } },
        { resourceType: 'Communication', compartment: { reference: '%patient' } },
        { resourceType: 'Binary', compartment: { reference: '%patient' } },
      ],
    });
    const withPolicy = { ...project, defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.id}` } };
    [maria, aisha, practitioner] = await Promise.all(
      (['Patient', 'Patient', 'Practitioner'] as const).map(async (type) => {
        const user = await createUser(server.db);
        await addMembership(server.db, user, withPolicy, type);
        return signIn(server.baseUrl, user.email as string);
      }),
    );
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await server.close();
    fs.rmSync(binaryDir, { recursive: true, force: true });
  });

  test('CommunicationChanged(subject) emits the matching new and updated resources, fields selected', async () => {
    const c = client({ token: maria.access_token });
    const sub = collect(
      c,
      `subscription { CommunicationChanged(subject: "${maria.profile?.reference}") { id status subject { reference } } }`,
    );
    // Let the subscription start before writing.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await post(practitioner, aisha, 'for Aisha');
    const mine = await post(practitioner, maria, 'for Maria');
    const first = await sub.next();
    expect(first.data?.CommunicationChanged).toEqual({
      id: mine.id,
      status: 'completed',
      subject: { reference: maria.profile?.reference },
    });
    const update = await fetch(`${server.fhirUrl}Communication/${mine.id}`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/fhir+json',
        authorization: `Bearer ${practitioner.access_token}`,
      },
      body: JSON.stringify({ ...mine, status: 'stopped' }),
    });
    expect(update.status).toBe(200);
    expect((await sub.next()).data?.CommunicationChanged.status).toBe('stopped');
    sub.stop();
  });

  test('an attachment of a live message is a signed URL that loads without a header, as in $graphql answers', async () => {
    const sub = collect(
      client({ token: maria.access_token }),
      `subscription { CommunicationChanged(subject: "${maria.profile?.reference}") {
        id payload { contentAttachment { url contentType } } } }`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Dr. Chen's photo for Maria, placed in her compartment.
    const bytes = crypto.randomBytes(80);
    const binary = await uploadInto(server.fhirUrl, practitioner, maria, bytes);
    const sent = await fetch(`${server.fhirUrl}Communication`, {
      method: 'POST',
      headers: {
        'content-type': 'application/fhir+json',
        authorization: `Bearer ${practitioner.access_token}`,
      },
      body: JSON.stringify({
        resourceType: 'Communication',
        status: 'completed',
        subject: { reference: maria.profile?.reference },
        payload: [{ contentAttachment: { contentType: 'image/png', url: `Binary/${binary.id}` } }],
      }),
    });
    expect(sent.status).toBe(201);
    const result = (await sub.next()) as unknown as ExecutionResult<{
      CommunicationChanged: { payload: { contentAttachment: { url: string; contentType: string } }[] };
    }>;
    const url = result.data?.CommunicationChanged.payload[0]?.contentAttachment.url ?? '';
    expect(url).toMatch(new RegExp(`^${server.baseUrl}storage/${binary.id}\\?Expires=\\d+&Signature=`));
    const image = await fetch(url); // no Authorization header, as an <img>
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(bytes);
    sub.stop();
  });

  test('the codegen-typed operation operations/CommunicationChanged.graphql (SubscriptionType root) runs with its variables', async () => {
    const results: CommunicationChangedSubscription[] = [];
    const stop = client({ token: maria.access_token }).subscribe<CommunicationChangedSubscription>(
      { query: print(CommunicationChangedDocument), variables: { subject: maria.profile?.reference ?? '' } },
      {
        next: (result) => {
          if (result.data) results.push(result.data);
        },
        error: () => undefined,
        complete: () => undefined,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const mine = await post(practitioner, maria, 'typed');
    const deadline = Date.now() + 8000;
    while (results.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    stop();
    const changed = results[0]?.CommunicationChanged;
    expect(changed?.id).toBe(mine.id);
    expect(changed?.payload?.[0]?.contentString).toBe('typed');
    expect(changed?.sender).toBeNull();
  });

  test('TypeChanged streams creates and updates, not deletes (a deleted resource has no fields to select)', async () => {
    const sub = collect(
      client({ token: maria.access_token }),
      `subscription { CommunicationChanged(subject: "${maria.profile?.reference}") { id } }`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const doomed = await post(practitioner, maria, 'soon deleted');
    expect((await sub.next()).data?.CommunicationChanged.id).toBe(doomed.id);
    const deleted = await fetch(`${server.fhirUrl}Communication/${doomed.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${practitioner.access_token}` },
    });
    expect(deleted.status).toBe(200);
    const after = await post(practitioner, maria, 'after the delete');
    // The next result is the later create: the delete in between emitted nothing.
    expect((await sub.next()).data?.CommunicationChanged.id).toBe(after.id);
    sub.stop();
  });

  test('without criteria a patient still hears only their own resources (access control)', async () => {
    const sub = collect(
      client({ authorization: `Bearer ${aisha.access_token}` }),
      'subscription { CommunicationChanged { id } }',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await post(practitioner, maria, 'not for Aisha');
    const hers = await post(practitioner, aisha, 'for Aisha');
    expect((await sub.next()).data?.CommunicationChanged.id).toBe(hers.id);
    sub.stop();
  });

  test('a missing or invalid access token closes the connection with 4403', async () => {
    for (const params of [{}, { token: 'not-a-token' }]) {
      const closed = new Promise<{ code?: number }>((resolve) =>
        client(params, (event) => resolve(event as { code?: number })),
      );
      expect((await closed).code).toBe(4403);
    }
  });

  test('bad search arguments are an error for that subscription', async () => {
    const sub = collect(
      client({ token: maria.access_token }),
      'subscription { ObservationChanged(date: "yesterday") { id } }',
    );
    const result = await sub.next(5000);
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0]?.message).toMatch(/Invalid value 'yesterday'.*'date'/);
  });

  /** One query or mutation over the socket: its result, or the error messages it was refused with. */
  async function runOverSocket(
    c: Client,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<{ data?: unknown; refused?: string[] }> {
    return new Promise((resolve) => {
      c.subscribe(
        { query, variables },
        {
          next: (result) => resolve({ data: result.data }),
          error: (err) =>
            resolve({
              refused: Array.isArray(err) ? err.map((e: { message: string }) => e.message) : [String(err)],
            }),
          complete: () => undefined,
        },
      );
    });
  }

  test("a query over the socket meets $graphql's depth and cost bounds; whole-schema introspection is refused there", async () => {
    const c = client({ token: practitioner.access_token });
    let inner = 'id';
    for (let i = 0; i < 6; i++) inner = `partOf { resource { ... on Organization { ${inner} } } }`;
    const deep = await runOverSocket(c, `{ Organization(id: "x") { ${inner} } }`);
    expect(deep.refused?.[0]).toMatch(/Query too deep: .* depth 13, the limit is 12/);
    const costly = `query ($n: Int) { PatientList(_count: $n) { ObservationList(_reference: subject, _count: $n) { id } } }`;
    expect((await runOverSocket(c, costly, { n: 500 })).refused?.[0]).toMatch(/Query too costly/);
    const wholeSchema = await runOverSocket(c, '{ __schema { types { name } } }');
    expect(wholeSchema.refused?.[0]).toMatch(/answered by POST \$graphql, not over the socket/);
    // The socket stays open: the same shapes within bounds are answered on it.
    expect(await runOverSocket(c, costly, { n: 2 })).toEqual({ data: { PatientList: expect.any(Array) } });
    expect(await runOverSocket(c, '{ __type(name: "Patient") { name } }')).toEqual({
      data: { __type: { name: 'Patient' } },
    });
  });
});
