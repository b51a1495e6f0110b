// One transport policy (SPEC §4 request results, §9 retries): a GraphQL query through the app's Apollo
// Client goes through the platform client's request pipeline, so against the REAL server (behind a
// real HTTP proxy that fails on purpose) it is renewed once on a 401 by the client's token manager,
// waits out a 429's Retry-After, backs off after 503s, is aborted, and a dropped connection twice
// tells the app it is offline. And one cache policy: a REST write through the client evicts what
// the app's Apollo Client (shared-client.ts) holds of the resource and its lists, so a watching query
// reads again by itself.
// PGlite always, PostgreSQL too with TEST_DATABASE_URL.
import type { Observation, Patient } from '@medplum/fhirtypes';
import type { BloomClient } from '../../src/client';
import { RETRY_DELAY } from '../../src/client/retry-policy';
import { vitalObservation } from '../../src/app/features/health-record/vitalObservation';
import { VITAL_TYPES } from '../../src/app/features/health-record/vitalTypes';
import { ResourceListDocument, type ResourceListQuery, VitalsListDocument } from '../../src/graphql';
import { createGraphqlClient } from '../../src/graphql/apollo-client';
import { sharedGraphqlClient } from '../../src/graphql/shared-client';
import { Repository, systemContext } from '../../src/server/repo';
import { seedDemoClinic } from '../../src/server/seed';
import { DEFAULT_DEMO_PASSWORD } from '../../src/server/seed/demo';
import { signedInClient } from '../client/support/server-sign-in';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';
import { startFaultProxy } from './support/fault-proxy';
import type { FaultProxy } from './support/fault-proxy';

/** The search table's typed operation for one page of Patients, and its rows as the table reads them. */
const PATIENT_PAGE = { resourceType: 'Patient', search: '_count=20' };
const patientRows = (data: ResourceListQuery | undefined): Patient[] =>
  (data?.ResourceSearch.resources ?? []) as Patient[];

describe.each(databases())(
  'GraphQL through the client’s pipeline against the real server on %s',
  (_engine, kind) => {
    let server: TestServer;
    let proxy: FaultProxy;
    let maria: BloomClient;

    beforeAll(async () => {
      server = await startTestServer(kind, {}, { requireAuth: true });
      await seedDemoClinic(new Repository(server.db, systemContext()), {
        demoPassword: DEFAULT_DEMO_PASSWORD,
      });
      proxy = await startFaultProxy(server.baseUrl, '$graphql');
      maria = await signedInClient(proxy.baseUrl, 'maria@bloom.example');
    });

    afterAll(async () => {
      await proxy?.close();
      await server?.close();
    });

    const apollo = () =>
      createGraphqlClient({ fhirBaseUrl: maria.getSettings().fhirBaseUrl, session: maria });
    const patients = (client = apollo(), context?: Record<string, unknown>) =>
      client.query({
        query: ResourceListDocument,
        variables: PATIENT_PAGE,
        fetchPolicy: 'no-cache',
        context,
      });
    const since = () => proxy.arrivals.length;
    const gapsFrom = (first: number) =>
      proxy.arrivals.slice(first + 1).map((time, i) => time - proxy.arrivals[first + i]);

    test('a 401: one renewal through the client’s token manager (one token call), then the retry succeeds', async () => {
      const before = maria.getAccessToken();
      const tokenCalls = proxy.paths.filter((p) => p.endsWith('oauth2/token')).length;
      const first = since();
      proxy.fail({ kind: 'status', status: 401 });
      const answer = await patients();
      expect(patientRows(answer.data)).toHaveLength(1);
      expect(proxy.arrivals.length - first).toBe(2);
      expect(proxy.paths.filter((p) => p.endsWith('oauth2/token')).length - tokenCalls).toBe(1);
      expect(maria.getAccessToken()).not.toBe(before);
    });

    test('a 429 with Retry-After: 1 is sent again after a second, not sooner', async () => {
      const first = since();
      proxy.fail({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
      const answer = await patients();
      expect(patientRows(answer.data)).toHaveLength(1);
      const gaps = gapsFrom(first);
      expect(gaps).toHaveLength(1);
      expect(gaps[0]).toBeGreaterThanOrEqual(1000);
    });

    test('503 twice: retried after the policy’s delay each time, the third attempt answers', async () => {
      const first = since();
      proxy.fail({ kind: 'status', status: 503 }, { kind: 'status', status: 503 });
      const answer = await patients();
      expect(patientRows(answer.data)).toHaveLength(1);
      const gaps = gapsFrom(first);
      expect(gaps).toHaveLength(2);
      expect(gaps.every((gap) => gap >= RETRY_DELAY)).toBe(true);
    });

    test('two dropped connections: the client’s offline event, backoff, and the third attempt answers', async () => {
      const offline = jest.fn();
      maria.addEventListener('offline', offline);
      const first = since();
      proxy.fail({ kind: 'drop' }, { kind: 'drop' });
      const answer = await patients();
      maria.removeEventListener('offline', offline);
      expect(patientRows(answer.data)).toHaveLength(1);
      expect(offline).toHaveBeenCalledTimes(1);
      const gaps = gapsFrom(first);
      expect(gaps).toHaveLength(2);
      expect(gaps[0]).toBeGreaterThanOrEqual(RETRY_DELAY);
      expect(gaps[1]).toBeGreaterThanOrEqual(2 * RETRY_DELAY);
    });

    test('an abort while the server has not answered rejects with "Request aborted"; nothing is sent again', async () => {
      const first = since();
      proxy.fail({ kind: 'hold' });
      const controller = new AbortController();
      const pending = patients(apollo(), { fetchOptions: { signal: controller.signal } }).catch(
        (err: unknown) => err,
      );
      while (proxy.arrivals.length === first) await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort();
      expect(await pending).toMatchObject({ name: 'AbortError', message: 'Request aborted' });
      await new Promise((resolve) => setTimeout(resolve, 3 * RETRY_DELAY));
      expect(proxy.arrivals.length - first).toBe(1);
    });

    test('a measurement saved through the client reaches a watching VitalsList by itself: the list is evicted and read again', async () => {
      const client = sharedGraphqlClient(maria);
      const patient = `Patient/${maria.getProfile()?.id as string}`;
      const bloodPressure = VITAL_TYPES[0];
      const counts: (number | null | undefined)[] = [];
      const watch = client
        .watchQuery({
          query: VitalsListDocument,
          variables: { patient, code: `http://loinc.org|${bloodPressure.code}` },
        })
        .subscribe((result) => {
          if (!result.loading) counts.push(result.data?.ObservationConnection?.count);
        });
      try {
        await waitFor(() => counts.length === 1);
        const before = counts[0] as number;
        const queries = since();
        const saved = await maria.createResource<Observation>(
          vitalObservation(bloodPressure, [121, 79], patient, new Date()),
        );
        await waitFor(() => counts.length === 2);
        expect(counts[1]).toBe(before + 1);
        expect(proxy.arrivals.length - queries).toBe(1);
        const held = client.cache.extract() as Record<string, unknown>;
        expect(held[`Observation/${saved.id as string}`]).toBeDefined();
      } finally {
        watch.unsubscribe();
      }
    });

    test('her details updated through the client: Apollo drops Patient/{id} and the watching list shows the new name', async () => {
      const client = sharedGraphqlClient(maria);
      const id = maria.getProfile()?.id as string;
      const families: (string | null | undefined)[] = [];
      const watch = client
        .watchQuery({ query: ResourceListDocument, variables: PATIENT_PAGE })
        .subscribe((result) => {
          if (!result.loading && result.dataState === 'complete') {
            families.push(patientRows(result.data)[0]?.name?.[0]?.family);
          }
        });
      const stored = await maria.readResource<Patient>('Patient', id, { cache: 'no-cache' });
      const family = stored.name?.[0]?.family as string;
      try {
        await waitFor(() => families.length === 1);
        expect(families[0]).toBe(family);
        const renamed = [
          { ...stored.name?.[0], family: `${family}-Lopez` },
          ...(stored.name?.slice(1) ?? []),
        ];
        await maria.updateResource<Patient>({ ...stored, name: renamed });
        await waitFor(() => families.length === 2);
        expect(families[1]).toBe(`${family}-Lopez`);
      } finally {
        watch.unsubscribe();
        const current = await maria.readResource<Patient>('Patient', id, { cache: 'no-cache' });
        await maria.updateResource<Patient>({ ...current, name: stored.name });
      }
    });
  },
);

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(condition()).toBe(true);
}
