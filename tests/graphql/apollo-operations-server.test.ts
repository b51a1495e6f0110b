// The design card's operations (SPEC Design card; §7) through the app's Apollo Client and link chain
// against the REAL server in-process with the demo clinic: Maria signs in through BloomClient, whose
// session the link uses; each typed document from src/graphql/generated runs over HTTP. PGlite always,
// PostgreSQL too with TEST_DATABASE_URL.
import { gql } from '@apollo/client';
import type {
  Communication,
  Observation,
  Patient,
  SearchParameter,
  StructureDefinition,
} from '@medplum/fhirtypes';
import { BloomClient } from '../../src/client';
import { ACTIVE_LOGIN_KEY, MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import type { LoginState } from '../../src/client/storage';
import { OperationOutcomeError } from '../../src/fhir/outcomes';
import {
  CommunicationListDocument,
  createGraphqlClient,
  ResourceListDocument,
  SearchParameterListDocument,
  SearchTableStartDocument,
  StructureDefinitionFieldsDocument,
  StructureDefinitionListDocument,
} from '../../src/graphql';
import type { GraphqlSession } from '../../src/graphql/session';
import { Repository, systemContext } from '../../src/server/repo';
import { seedDemoClinic } from '../../src/server/seed';
import { DEFAULT_DEMO_PASSWORD } from '../../src/server/seed/demo';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';

describe.each(databases())('Apollo operations against the real server on %s (issue #6)', (_engine, kind) => {
  let server: TestServer;
  let maria: BloomClient;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEFAULT_DEMO_PASSWORD });
    maria = new BloomClient({ baseUrl: server.baseUrl, storage: new PrefixedStorage(new MemoryStorage()) });
    const { code } = await maria.startLogin({
      email: 'maria@bloom.example',
      password: DEFAULT_DEMO_PASSWORD,
    });
    await maria.processCode(code as string);
  });

  afterAll(async () => {
    await server?.close();
  });

  const apollo = () => createGraphqlClient({ fhirBaseUrl: maria.getSettings().fhirBaseUrl, session: maria });
  const mariaRef = () => `Patient/${maria.getProfile()?.id as string}`;

  test('CommunicationList: Maria’s thread header and its messages newest first (the thread opens at the newest), sender names and Dr. Chen’s photo, text and attachments', async () => {
    const attachment = {
      contentType: 'image/png',
      url: 'https://files.example/scan.png',
      title: 'scan.png',
      size: 1234,
    };
    const [header] = await maria.searchResources<Communication>('Communication', {
      subject: mariaRef(),
      'part-of:missing': 'true',
    });
    const withAttachment = await maria.createResource<Communication>({
      resourceType: 'Communication',
      status: 'in-progress',
      partOf: [{ reference: `Communication/${header.id}` }],
      subject: { reference: mariaRef() },
      sender: { reference: mariaRef() },
      payload: [{ contentString: 'My scan' }, { contentAttachment: attachment }],
      sent: '2099-01-01T10:00:00.000Z',
    });
    // A Communication about her outside the thread is not one of its messages.
    const outside = await maria.createResource<Communication>({
      resourceType: 'Communication',
      status: 'completed',
      partOf: [{ reference: `Communication/${withAttachment.id}` }],
      subject: { reference: mariaRef() },
      sender: { reference: mariaRef() },
      payload: [{ contentString: 'Not in the thread' }],
      sent: '2099-01-02T10:00:00.000Z',
    });

    const { data } = await apollo().query({
      query: CommunicationListDocument,
      variables: { subject: mariaRef() },
    });
    const [thread] = data?.CommunicationList ?? [];
    expect(thread).toMatchObject({ id: header.id, topic: { text: 'Questions for Dr. Chen' } });
    const messages = (thread?.messages ?? []).flatMap((m) => (m ? [m] : []));
    expect(messages.length).toBeGreaterThan(2);
    expect(messages.map((m) => m.id)).not.toContain(outside.id);
    expect(messages.every((m) => m.partOf?.[0]?.reference === `Communication/${header.id}`)).toBe(true);
    const sent = messages.map((m) => m.sent as string);
    expect(sent).toEqual([...sent].sort().reverse());
    expect(messages[0]?.id).toBe(withAttachment.id);
    expect(messages[0]?.payload?.[1]?.contentAttachment).toEqual({
      __typename: 'Attachment',
      ...attachment,
    });
    expect(messages[0]?.payload?.[0]?.contentString).toBe('My scan');

    const fromDoctor = messages.find((m) => m.sender?.reference?.startsWith('Practitioner/'));
    const doctor = fromDoctor?.sender?.resource;
    expect(doctor).toMatchObject({ resourceType: 'Practitioner', name: [{ family: 'Chen' }] });
    expect(doctor && 'photo' in doctor ? doctor.photo?.[0]?.data : undefined).toEqual(expect.any(String));
    const fromMaria = messages.find((m) => m.sender?.reference === mariaRef());
    expect(fromMaria?.sender?.resource).toMatchObject({
      resourceType: 'Patient',
      name: [{ given: ['Maria'] }],
    });
    expect(messages.every((m) => typeof m.payload?.[0]?.contentString === 'string')).toBe(true);
  });

  test('ResourceList: a typed page of Observations with the total, and Maria sees only her own Patient row', async () => {
    const client = apollo();
    const pageOf = async (resourceType: string, search: string) =>
      (await client.query({ query: ResourceListDocument, variables: { resourceType, search } })).data
        ?.ResourceSearch;
    const first = await pageOf('Observation', '_count=5&_offset=0&_sort=-_lastUpdated&_total=accurate');
    const rows = (first?.resources ?? []) as Observation[];
    expect(rows).toHaveLength(5);
    expect(first?.total).toBeGreaterThan(5);
    expect(rows.every((row) => row.resourceType === 'Observation' && typeof row.status === 'string')).toBe(
      true,
    );

    const second = await pageOf('Observation', '_count=5&_offset=5&_sort=-_lastUpdated');
    expect(second?.offset).toBe(5);
    expect(((second?.resources ?? []) as Observation[]).map((r) => r.id)).not.toContain(rows[0].id);

    const patients = await pageOf('Patient', '_total=accurate');
    expect(((patients?.resources ?? []) as Patient[]).map((r) => `Patient/${r.id as string}`)).toEqual([
      mariaRef(),
    ]);
    expect(patients?.total).toBe(1);
  });

  test('StructureDefinitionList and SearchParameterList: the schema load of a stored profile (SPEC §7, count 100)', async () => {
    const admin = new BloomClient({
      baseUrl: server.baseUrl,
      storage: new PrefixedStorage(new MemoryStorage()),
    });
    const { code } = await admin.startLogin({
      email: 'admin@bloom.example',
      password: DEFAULT_DEMO_PASSWORD,
    });
    await admin.processCode(code as string);
    const suffix = Math.random().toString(36).slice(2, 8);
    const name = `BloomVitalSign${suffix}`;
    await admin.createResource<StructureDefinition>({
      resourceType: 'StructureDefinition',
      name,
      url: `https://bloom.example/fhir/StructureDefinition/vital-sign-${suffix}`,
      status: 'active',
      kind: 'resource',
      abstract: false,
      type: 'Observation',
      baseDefinition: 'http://hl7.org/fhir/StructureDefinition/Observation',
      derivation: 'constraint',
      snapshot: {
        element: [
          { id: 'Observation', path: 'Observation', definition: 'A vital sign' },
          {
            id: 'Observation.subject',
            path: 'Observation.subject',
            min: 1,
            max: '1',
            base: { path: 'Observation.subject', min: 0, max: '1' },
            type: [{ code: 'Reference', targetProfile: ['http://hl7.org/fhir/StructureDefinition/Patient'] }],
          },
        ],
      },
    });
    const base = 'Basic';
    const codes = ['alpha', 'beta', 'gamma'].map((word) => `${word}-${suffix}`);
    for (const codeName of codes) {
      await admin.createResource<SearchParameter>({
        resourceType: 'SearchParameter',
        url: `https://bloom.example/fhir/SearchParameter/${base}-${codeName}`,
        name: codeName,
        status: 'active',
        description: `Test parameter ${codeName}`,
        code: codeName,
        base: [base],
        type: 'token',
        expression: `Basic.code`,
      });
    }
    const client = createGraphqlClient({ fhirBaseUrl: admin.getSettings().fhirBaseUrl, session: admin });

    const sd = await client.query({ query: StructureDefinitionListDocument, variables: { name } });
    expect(sd.data?.StructureDefinitionList).toHaveLength(1);
    const definition = sd.data?.StructureDefinitionList?.[0];
    expect(definition).toMatchObject({
      resourceType: 'StructureDefinition',
      name,
      kind: 'resource',
      type: 'Observation',
    });
    expect(definition?.snapshot?.element?.[1]).toMatchObject({
      path: 'Observation.subject',
      min: 1,
      max: '1',
      base: { path: 'Observation.subject', min: 0, max: '1' },
      type: [{ code: 'Reference', targetProfile: ['http://hl7.org/fhir/StructureDefinition/Patient'] }],
    });

    const sp = await client.query({ query: SearchParameterListDocument, variables: { base } });
    const params = (sp.data?.SearchParameterList ?? []).flatMap((p) => (p ? [p] : []));
    expect(params.map((p) => p.code)).toEqual(expect.arrayContaining(codes));
    // The base FHIR SearchParameters of Basic are listed too: check the stored ones.
    const stored = params.filter((p) => codes.includes(p.code as string));
    expect(stored.every((p) => p.type === 'token' && p.base?.[0] === base)).toBe(true);
    expect(params.every((p) => p.base?.includes(base))).toBe(true);
    // The count variable reaches _count (the operation's default is SPEC §9's 100).
    const few = await client.query({ query: SearchParameterListDocument, variables: { base, count: 2 } });
    expect(few.data?.SearchParameterList).toHaveLength(2);
    // A name nobody stored is an empty list, not an error.
    const none = await client.query({
      query: StructureDefinitionListDocument,
      variables: { name: `${name}Missing` },
    });
    expect(none.data?.StructureDefinitionList).toEqual([]);
  });

  test("StructureDefinitionFields: the search table's slim schema load gives every element's path and type codes, and shares the cache with the full one (SPEC §7 schema load)", async () => {
    const client = apollo();
    const slim = await client.query({
      query: StructureDefinitionFieldsDocument,
      variables: { name: 'Observation' },
    });
    const definition = slim.data?.StructureDefinitionList?.find((sd) => sd?.kind === 'resource');
    expect(definition).toMatchObject({ resourceType: 'StructureDefinition', name: 'Observation' });
    const types = new Map(
      (definition?.snapshot?.element ?? []).map((element) => [
        element?.path,
        (element?.type ?? []).map((type) => type?.code),
      ]),
    );
    // The column kinds the table renders: codes, references, dates (a choice type), identifiers.
    expect(types.get('Observation.status')).toEqual(['code']);
    expect(types.get('Observation.code')).toEqual(['CodeableConcept']);
    expect(types.get('Observation.subject')).toEqual(['Reference']);
    expect(types.get('Observation.effective[x]')).toEqual(
      expect.arrayContaining(['dateTime', 'Period', 'instant']),
    );
    expect(types.get('Observation.issued')).toEqual(['instant']);
    // The resource pages' full load after the table's slim one (the same cached definition) still
    // gets the full elements.
    const full = await client.query({
      query: StructureDefinitionListDocument,
      variables: { name: 'Observation' },
    });
    const status = full.data?.StructureDefinitionList?.find(
      (sd) => sd?.kind === 'resource',
    )?.snapshot?.element?.find((element) => element?.path === 'Observation.status');
    expect(status).toMatchObject({ min: 1, max: '1', binding: { strength: 'required' } });
    expect(status?.definition).toEqual(expect.any(String));
    // And the slim one after it reads its fields from the cached full answer.
    const again = await client.query({
      query: StructureDefinitionFieldsDocument,
      variables: { name: 'Observation' },
    });
    expect(again.data?.StructureDefinitionList?.[0]?.snapshot?.element?.length).toBe(
      definition?.snapshot?.element?.length,
    );
  });

  test("SearchTableStart: the search table's rows and schema in one request, after which ResourceList, StructureDefinitionFields and both SearchParameterLists answer from the cache (SPEC §7)", async () => {
    const sent: string[] = [];
    const session: GraphqlSession = {
      fetch: (input, init) => {
        sent.push(/"operationName":"(\w+)"/.exec(String(init?.body ?? ''))?.[1] ?? '?');
        return maria.fetch(input, init);
      },
      getAccessToken: () => maria.getAccessToken(),
      refreshIfExpired: () => maria.refreshIfExpired(),
    };
    const client = createGraphqlClient({ fhirBaseUrl: maria.getSettings().fhirBaseUrl, session });
    const rows = { resourceType: 'Observation', search: '_count=5&_sort=-_lastUpdated' };
    const start = await client.query({
      query: SearchTableStartDocument,
      variables: {
        ...rows,
        withRows: true,
        withDefinition: true,
        withOwnParameters: true,
        withCommonParameters: true,
      },
    });
    expect(start.data?.rows?.resources).toHaveLength(5);
    expect(start.data?.commonParameters?.map((parameter) => parameter?.code)).toContain('_lastUpdated');
    const cacheOnly = 'cache-only' as const;
    const parts = await Promise.all([
      client.query({ query: ResourceListDocument, variables: rows, fetchPolicy: cacheOnly }),
      client.query({
        query: StructureDefinitionFieldsDocument,
        variables: { name: 'Observation' },
        fetchPolicy: cacheOnly,
      }),
      client.query({
        query: SearchParameterListDocument,
        variables: { base: 'Observation' },
        fetchPolicy: cacheOnly,
      }),
      client.query({
        query: SearchParameterListDocument,
        variables: { base: 'Resource' },
        fetchPolicy: cacheOnly,
      }),
    ]);
    expect(parts[0].data?.ResourceSearch).toEqual(start.data?.rows);
    expect(parts[1].data?.StructureDefinitionList).toEqual(start.data?.definition);
    expect(parts[2].data?.SearchParameterList).toEqual(start.data?.ownParameters);
    expect(parts[3].data?.SearchParameterList).toEqual(start.data?.commonParameters);
    expect(sent).toEqual(['SearchTableStart']);
    // A flag left false leaves its field out of the request and the answer.
    const rowsOnly = await client.query({
      query: SearchTableStartDocument,
      variables: {
        ...rows,
        withRows: true,
        withDefinition: false,
        withOwnParameters: false,
        withCommonParameters: false,
      },
      fetchPolicy: 'network-only',
    });
    expect(Object.keys(rowsOnly.data ?? {}).filter((key) => key !== '__typename')).toEqual(['rows']);
  });

  test('a query the server refuses arrives as an OperationOutcomeError with the server’s text', async () => {
    const bad = gql`
      query Bad {
        Patient(id: "x") {
          bogusField
        }
      }
    `;
    const error = await apollo()
      .query({ query: bad })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(OperationOutcomeError);
    expect((error as Error).message).toContain('Cannot query field "bogusField" on type "Patient"');
  });

  test('a token the server refuses: one renewal through BloomClient’s token manager, then the retry succeeds', async () => {
    const storage = new PrefixedStorage(new MemoryStorage());
    const signIn = new BloomClient({ baseUrl: server.baseUrl, storage });
    const { code } = await signIn.startLogin({
      email: 'maria@bloom.example',
      password: DEFAULT_DEMO_PASSWORD,
    });
    await signIn.processCode(code as string);
    const login = storage.getObject<LoginState>(ACTIVE_LOGIN_KEY) as LoginState;
    expect(login.refreshToken).toEqual(expect.any(String));
    // The page reloads with a stored access token the server no longer accepts (its signature altered);
    // the refresh token still works.
    const forged = `${login.accessToken.slice(0, -6)}${login.accessToken.endsWith('AAAAAA') ? 'BBBBBB' : 'AAAAAA'}`;
    storage.setObject<LoginState>(ACTIVE_LOGIN_KEY, { ...login, accessToken: forged });
    const seen: (string | undefined)[] = [];
    const tokenCalls: string[] = [];
    const session = new BloomClient({
      baseUrl: server.baseUrl,
      storage,
      // The token endpoint is called by the token manager directly; the API through the pipeline.
      fetch: (input, init) => {
        if (input.endsWith('oauth2/token')) tokenCalls.push(String(init?.body));
        return fetch(input, init);
      },
      hooks: {
        beforeRequest: [
          ({ url, headers }) => void (url.endsWith('$graphql') && seen.push(headers.Authorization)),
        ],
      },
    });
    expect(session.getAccessToken()).toBe(forged);
    const client = createGraphqlClient({ fhirBaseUrl: session.getSettings().fhirBaseUrl, session });
    const answer = await client.query({
      query: ResourceListDocument,
      variables: { resourceType: 'Patient' },
    });
    expect(answer.data?.ResourceSearch.resources).toHaveLength(1);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(`Bearer ${forged}`);
    expect(seen[1]).toBe(`Bearer ${session.getAccessToken() as string}`);
    expect(session.getAccessToken()).not.toBe(forged);
    expect(tokenCalls).toHaveLength(1);
    expect(new URLSearchParams(tokenCalls[0]).get('grant_type')).toBe('refresh_token');
  });
});
