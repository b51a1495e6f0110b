// The AccessPolicy on the live paths (SPEC §6, §7), over real HTTP and WebSockets on PGlite and
// PostgreSQL, through the same policy code as REST: Binary signed URLs (none minted for a Binary the
// caller cannot read, nor for one whose content the policy hides), subscriptions over
// /ws/subscriptions-r4 with Medplum's MedplumClient.subscribeToCriteria, graphql-ws, a Bot with
// runAsUser run through MedplumClient.executeBot, and a bulk export through MedplumClient.bulkExport.
// A criteria-restricted practitioner gets only what his policy matches, without its hiddenFields.
// FHIRcast entries carry no criteria: a policy naming them is refused when written.
import '../../conformance/medplum-sdk/support/node-websocket';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MedplumClient, SubscriptionEmitter, SubscriptionEventMap } from '@medplum/core';
import type {
  AccessPolicy,
  Binary,
  Bot,
  Bundle,
  Communication,
  Observation,
  Patient,
  Practitioner,
  Project,
  ProjectMembership,
  Resource,
  User,
} from '@medplum/fhirtypes';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { signedInClient } from '../../conformance/medplum-sdk/support/medplum-client';
import { createProject, createUser, signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

jest.setTimeout(60_000);

interface Answer<T> {
  status: number;
  body: T;
}

const until = <T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_resolve, reject) => setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)),
  ]);

describe.each(databases())('SPEC §6 AccessPolicy on the live paths on %s', (_engine, kind) => {
  let server: TestServer;
  let db: Database;
  let project: Project;
  let system: Repository;
  let binaryDir: string;
  let admin: Tokens;
  let chen: Tokens;
  let chenRef: string;
  let maria: Tokens;
  let mariaRef: string;
  let aishaRef: string;
  let otherDoctorRef: string;
  let aishaBinary: Binary;
  let mariaBinary: Binary;
  const graphqlClients: Client[] = [];

  async function call<T = Record<string, unknown>>(
    method: string,
    urlPath: string,
    tokens: Tokens,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const response = await fetch(`${server.fhirUrl}${urlPath}`, {
      method,
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/fhir+json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      // raw content (a Binary's bytes)
    }
    return { status: response.status, body: parsed as T };
  }

  /** A user signed in with a membership whose access is given as data. */
  async function member(
    profileType: 'Patient' | 'Practitioner',
    access: Pick<ProjectMembership, 'accessPolicy' | 'access' | 'admin'>,
  ): Promise<{ tokens: Tokens; ref: string }> {
    const user: User = await createUser(db);
    const profile = await system.createResource<Patient | Practitioner>({
      resourceType: profileType,
      name: [{ family: 'Member' }],
    } as Patient);
    const ref = `${profileType}/${profile.id}`;
    await system.createResource<ProjectMembership>({
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${project.id}` },
      user: { reference: `User/${user.id}` },
      profile: { reference: ref },
      ...access,
    });
    return { tokens: await signIn(server.baseUrl, user.email as string), ref };
  }

  const observation = (performer: string, subject: string, text: string, note?: string): Observation => ({
    resourceType: 'Observation',
    status: 'final',
    code: { text },
    subject: { reference: subject },
    performer: [{ reference: performer }],
    ...(note ? { note: [{ text: note }] } : {}),
  });

  async function upload(into: string, bytes: string): Promise<Binary> {
    const response = await fetch(`${server.fhirUrl}Binary`, {
      method: 'POST',
      headers: {
        'content-type': 'text/plain',
        authorization: `Bearer ${admin.access_token}`,
        'x-security-context': into,
      },
      body: bytes,
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Binary;
  }

  beforeAll(async () => {
    binaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-policy-live-'));
    server = await startTestServer(kind, { BINARY_DIR: binaryDir }, { requireAuth: true });
    db = server.db;
    project = await createProject(db, 'Live Policy Clinic');
    system = new Repository(db, systemContext(project.id));
    aishaRef = `Patient/${(await system.createResource<Patient>({ resourceType: 'Patient' })).id}`;
    otherDoctorRef = `Practitioner/${(await system.createResource<Practitioner>({ resourceType: 'Practitioner' })).id}`;
    ({ tokens: admin } = await member('Practitioner', { admin: true }));

    // The issue's practitioner: his Observations only (their notes hidden), Aisha's Binaries and
    // messages, Patients read-only, his own Subscriptions, and the clinic's bots to run.
    const practitionerPolicy = await system.createResource<AccessPolicy>({
      resourceType: 'AccessPolicy',
      name: 'Practitioner',
      resource: [
        { resourceType: 'Observation', criteria: 'Observation?performer=%profile', hiddenFields: ['note'] },
        { resourceType: 'Communication' },
        { resourceType: 'Binary', compartment: { reference: aishaRef } },
        { resourceType: 'Patient', readonly: true },
        { resourceType: 'Subscription' },
        { resourceType: 'Bot', readonly: true },
      ],
    });
    ({ tokens: chen, ref: chenRef } = await member('Practitioner', {
      accessPolicy: { reference: `AccessPolicy/${practitionerPolicy.id}` },
    }));

    // A patient: her compartment; her Binaries' content is hidden from her (hiddenFields data).
    const patientPolicy = await system.createResource<AccessPolicy>({
      resourceType: 'AccessPolicy',
      name: 'Patient',
      resource: [
        { resourceType: 'Patient', compartment: { reference: '%patient' }, readonly: true },
        { resourceType: 'Observation', compartment: { reference: '%patient' }, readonly: true },
        { resourceType: 'Communication', compartment: { reference: '%patient' }, readonly: true },
        { resourceType: 'Binary', compartment: { reference: '%patient' }, hiddenFields: ['data'] },
        { resourceType: 'Bot', readonly: true },
      ],
    });
    ({ tokens: maria, ref: mariaRef } = await member('Patient', {
      accessPolicy: { reference: `AccessPolicy/${patientPolicy.id}` },
    }));

    aishaBinary = await upload(aishaRef, 'aisha scan');
    mariaBinary = await upload(mariaRef, 'maria scan');
  });

  afterAll(async () => {
    await Promise.all(graphqlClients.map((c) => c.dispose()));
    await server.close();
    fs.rmSync(binaryDir, { recursive: true, force: true });
  });

  test('SPEC §6 Binary signed URLs: minted only for a Binary the caller may read whose content is not hidden', async () => {
    const message = await system.createResource<Communication>({
      resourceType: 'Communication',
      status: 'completed',
      subject: { reference: mariaRef },
      payload: [
        { contentAttachment: { contentType: 'text/plain', url: `Binary/${aishaBinary.id}` } },
        { contentAttachment: { contentType: 'text/plain', url: `Binary/${mariaBinary.id}` } },
      ],
    });
    const urls = (answer: Answer<Communication>) =>
      answer.body.payload?.map((p) => p.contentAttachment?.url ?? '') ?? [];

    // Dr. Chen may read Aisha's Binaries only: hers is signed, Maria's stays a bare reference.
    const forChen = await call<Communication>('GET', `Communication/${message.id}`, chen);
    expect(forChen.status).toBe(200);
    const [aishaUrl, mariaUrl] = urls(forChen);
    expect(aishaUrl).toMatch(
      new RegExp(`^${server.baseUrl}storage/${aishaBinary.id}\\?Expires=\\d+&Signature=`),
    );
    expect(mariaUrl).toBe(`Binary/${mariaBinary.id}`);
    expect(await (await fetch(aishaUrl)).text()).toBe('aisha scan');
    expect((await call('GET', `Binary/${mariaBinary.id}`, chen)).status).toBe(404);
    // The same through $graphql.
    const graphql = await call<{ data: { Communication: Communication } }>('POST', '$graphql', chen, {
      query: `{ Communication(id: "${message.id}") { payload { contentAttachment { url } } } }`,
    });
    expect(graphql.body.data.Communication.payload?.map((p) => p.contentAttachment?.url)).toEqual([
      expect.stringContaining(`storage/${aishaBinary.id}?`),
      `Binary/${mariaBinary.id}`,
    ]);

    // Maria reads her own Binary, but its content (data) is hidden: no URL, no bytes.
    const forMaria = await call<Communication>('GET', `Communication/${message.id}`, maria);
    expect(forMaria.status).toBe(200);
    expect(urls(forMaria)).toEqual([`Binary/${aishaBinary.id}`, `Binary/${mariaBinary.id}`]);
    const json = await call<Binary>('GET', `Binary/${mariaBinary.id}`, maria, undefined, {
      accept: 'application/fhir+json',
    });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ resourceType: 'Binary', id: mariaBinary.id });
    expect(json.body.data).toBeUndefined();
    expect((json.body as { url?: string }).url).toBeUndefined();
    const raw = await call<{ issue: { expression?: string[] }[] }>('GET', `Binary/${mariaBinary.id}`, maria);
    expect(raw.status).toBe(403);
    expect(raw.body.issue[0].expression).toEqual(['Binary.data']);
    expect(JSON.stringify(raw.body)).not.toContain('maria scan');
    // Her own upload is answered without a signed URL either.
    const uploaded = await fetch(`${server.fhirUrl}Binary`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${maria.access_token}` },
      body: 'her upload',
    });
    expect(uploaded.status).toBe(201);
    const created = (await uploaded.json()) as Binary & { url?: string };
    expect(created.resourceType).toBe('Binary');
    expect(created.url).toBeUndefined();
  });

  test('SPEC §6 subscriptions over /ws/subscriptions-r4 (MedplumClient.subscribeToCriteria): only his Observations, note hidden', async () => {
    const client: MedplumClient = await signedInClient(server.baseUrl, chen);
    const criteria = `Observation?subject=${aishaRef}`;
    const emitter: SubscriptionEmitter = client.subscribeToCriteria(criteria);
    const received: Bundle[] = [];
    emitter.addEventListener('message', (event: SubscriptionEventMap['message']) => {
      received.push(event.payload);
    });
    try {
      await until(
        new Promise<void>((resolve, reject) => {
          emitter.addEventListener('connect', () => resolve());
          emitter.addEventListener('error', (event: SubscriptionEventMap['error']) => reject(event.payload));
        }),
        'connected',
      );
      await system.createResource(observation(otherDoctorRef, aishaRef, 'not his', 'other note'));
      const his = await system.createResource(observation(chenRef, aishaRef, 'his', 'his note'));
      const deadline = Date.now() + 10_000;
      while (received.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Let a (wrong) second notification arrive if one were coming.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const focuses = received.flatMap(
        (bundle) =>
          bundle.entry?.map((e) => e.resource).filter((r) => r?.resourceType === 'Observation') ?? [],
      ) as Observation[];
      expect(focuses.map((o) => o.id)).toEqual([his.id]);
      expect(focuses[0].code.text).toBe('his');
      expect(focuses[0].note).toBeUndefined();
      expect(JSON.stringify(received)).not.toMatch(/not his|other note|his note/);
    } finally {
      client.unsubscribeFromCriteria(criteria);
    }
  });

  test('SPEC §6 graphql-ws ObservationChanged: only his Observations, note hidden', async () => {
    const results: { data?: { ObservationChanged?: { id: string; note?: unknown } } }[] = [];
    const client = createClient({
      url: `${server.baseUrl.replace('http', 'ws')}ws/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { token: chen.access_token },
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => undefined,
    });
    graphqlClients.push(client);
    const stop = client.subscribe(
      {
        query: `subscription { ObservationChanged(subject: "${aishaRef}") { id code { text } note { text } } }`,
      },
      {
        next: (result) => void results.push(result as (typeof results)[number]),
        error: () => undefined,
        complete: () => undefined,
      },
    );
    // Let the subscription start (the schema is built on first use) before writing.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await system.createResource(observation(otherDoctorRef, aishaRef, 'not his', 'other note'));
    const his = await system.createResource(observation(chenRef, aishaRef, 'his', 'his note'));
    const deadline = Date.now() + 10_000;
    while (results.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    stop();
    expect(results.map((r) => r.data?.ObservationChanged?.id)).toEqual([his.id]);
    expect(results[0].data?.ObservationChanged?.note ?? null).toBeNull();
    expect(JSON.stringify(results)).not.toMatch(/not his|other note|his note/);
  });

  test('SPEC §7 a Bot with runAsUser reads as its caller (MedplumClient.executeBot); without it, as itself', async () => {
    const code = `exports.handler = async (medplum, event) => {
      const found = await medplum.searchResources('Observation', { subject: event.input.subject, _count: '100' });
      return found.map((o) => ({ id: o.id, note: o.note ? 'present' : 'absent', text: o.code.text })).sort((a, b) => a.id < b.id ? -1 : 1);
    };`;
    const deploy = async (runAsUser: boolean): Promise<Bot> => {
      const bot = await call<Bot>('POST', 'Bot', admin, {
        resourceType: 'Bot',
        name: `reader ${runAsUser}`,
        runAsUser,
      });
      expect(bot.status).toBe(201);
      const deployed = await call(
        'POST',
        `Bot/${bot.body.id}/$deploy`,
        admin,
        { code, filename: 'reader.js' },
        {
          'content-type': 'application/json',
        },
      );
      expect(deployed.status).toBe(200);
      return bot.body;
    };
    const asCaller = await deploy(true);
    const asItself = await deploy(false);
    const subject = `Patient/${(await system.createResource<Patient>({ resourceType: 'Patient' })).id}`;
    const his = await system.createResource(observation(chenRef, subject, 'his', 'his note'));
    const other = await system.createResource(observation(otherDoctorRef, subject, 'not his', 'other note'));
    const mine = await system.createResource(observation(otherDoctorRef, mariaRef, 'hers', 'her note'));
    const sorted = (ids: (string | undefined)[]) => [...ids].sort();

    const chenClient = await signedInClient(server.baseUrl, chen);
    const forChen = (await chenClient.executeBot(asCaller.id as string, { subject }, 'application/json')) as {
      id: string;
      note: string;
    }[];
    expect(forChen).toEqual([{ id: his.id, note: 'absent', text: 'his' }]);
    // The same code as the bot's own membership (no policy: Medplum's legacy full access).
    const asBot = (await chenClient.executeBot(asItself.id as string, { subject }, 'application/json')) as {
      id: string;
    }[];
    expect(asBot.map((o) => o.id)).toEqual(sorted([his.id, other.id]));

    // A bot run by a patient cannot read what she cannot: another patient's Observations.
    const mariaClient = await signedInClient(server.baseUrl, maria);
    expect(await mariaClient.executeBot(asCaller.id as string, { subject }, 'application/json')).toEqual([]);
    expect(
      await mariaClient.executeBot(asCaller.id as string, { subject: mariaRef }, 'application/json'),
    ).toEqual([{ id: mine.id, note: 'present', text: 'hers' }]);
  });

  test('SPEC §6 bulk export (MedplumClient.bulkExport, kick-off, poll, NDJSON download): his Observations only, note absent', async () => {
    await system.createResource(observation(chenRef, aishaRef, 'his export', 'his note'));
    await system.createResource(observation(otherDoctorRef, aishaRef, 'not his export', 'other note'));
    const client = await signedInClient(server.baseUrl, chen);
    const manifest = await client.bulkExport('', 'Observation', undefined, {
      pollStatusOnAccepted: true,
      pollStatusPeriod: 200,
    });
    const lines: Resource[] = [];
    for (const file of manifest.output ?? []) {
      const response = await fetch(file.url as string, {
        headers: { authorization: `Bearer ${chen.access_token}` },
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      lines.push(
        ...text
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Resource),
      );
    }
    const all = await system.search<Observation>({ resourceType: 'Observation', count: 1000 });
    const his = all.resources.filter((o) => o.performer?.[0]?.reference === chenRef);
    expect(his.length).toBeGreaterThan(0);
    expect(all.resources.length).toBeGreaterThan(his.length);
    expect(lines.map((r) => r.id).sort()).toEqual(his.map((o) => o.id).sort());
    expect(lines.every((r) => r.resourceType === 'Observation' && !('note' in r))).toBe(true);
    expect(JSON.stringify(lines)).not.toMatch(/note/);
  });

  test('SPEC §6 FHIRcast entries: criteria (or compartment, field rules) are refused when the policy is written', async () => {
    const refused = await call<{
      issue: { code: string; details?: { text?: string }; expression?: string[] }[];
    }>('POST', 'AccessPolicy', admin, {
      resourceType: 'AccessPolicy',
      name: 'FHIRcast by patient',
      resource: [
        { resourceType: 'Patient' },
        { resourceType: 'FHIRcast', criteria: `Patient?_id=${aishaRef}` },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issue[0]).toMatchObject({
      code: 'not-supported',
      expression: ['AccessPolicy.resource[1].criteria'],
    });
    expect(refused.body.issue[0].details?.text).toMatch(/criteria is not supported for FHIRcast/);
    const compartment = await call<{ issue: { expression?: string[] }[] }>('POST', 'AccessPolicy', admin, {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'FHIRcast', compartment: { reference: aishaRef } }],
    });
    expect(compartment.status).toBe(400);
    expect(compartment.body.issue[0].expression).toEqual(['AccessPolicy.resource[0].compartment']);
    // An update that adds criteria is refused too; the policy by interaction alone is written.
    const plain = await call<AccessPolicy>('POST', 'AccessPolicy', admin, {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'FHIRcast', interaction: ['read'] }],
    });
    expect(plain.status).toBe(201);
    const update = await call('PUT', `AccessPolicy/${plain.body.id}`, admin, {
      ...plain.body,
      resource: [{ resourceType: 'FHIRcast', interaction: ['read'], criteria: 'Patient?name=x' }],
    });
    expect(update.status).toBe(400);
    const stored = await system.readResource<AccessPolicy>('AccessPolicy', plain.body.id as string);
    expect(stored.resource).toEqual([{ resourceType: 'FHIRcast', interaction: ['read'] }]);
  });
});
