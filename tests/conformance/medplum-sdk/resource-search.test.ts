// Medplum's own SDK (MedplumClient 5.2.13, unchanged) sends the search table's typed operation
// (SPEC §2 generic resource search table, §7 ResourceList queries): `ResourceSearch(resourceType,
// search)` answers a page with the caller's rights, so Dr. Chen sees the clinic's Patients and Maria
// only herself, never Aisha's Observations; a bad search is a GraphQL error with the REST message.
import type { MedplumClient } from '@medplum/core';
import type { Resource } from '@medplum/fhirtypes';
import { startClinic } from '../../server/operations/support/clinic';
import type { Clinic } from '../../server/operations/support/clinic';
import { databases } from '../../server/support/test-databases';
import { signedInClient } from './support/medplum-client';

interface SearchAnswer {
  data?: { ResourceSearch?: { total: number | null; resources: Resource[] } | null };
  errors?: { message: string }[];
}

const QUERY = `query ResourceList($resourceType: String!, $search: String) {
  ResourceSearch(resourceType: $resourceType, search: $search) { total offset pageSize resources }
}`;

describe.each(databases())(
  "ResourceSearch through Medplum's MedplumClient.graphql on %s",
  (_engine, kind) => {
    let clinic: Clinic;
    let maria: MedplumClient;
    let chen: MedplumClient;

    beforeAll(async () => {
      clinic = await startClinic(kind);
      [maria, chen] = await Promise.all(
        [clinic.maria, clinic.chen].map((tokens) => signedInClient(clinic.server.baseUrl, tokens)),
      );
    }, 120_000);

    afterAll(async () => {
      await clinic?.server.close();
    });

    const search = (client: MedplumClient, resourceType: string, query: string): Promise<SearchAnswer> =>
      client.graphql(QUERY, 'ResourceList', { resourceType, search: query }) as Promise<SearchAnswer>;

    test('Dr. Chen reads a page of the clinic’s Patients with its total', async () => {
      const answer = await search(chen, 'Patient', '_count=20&_total=accurate&_sort=name');
      expect(answer.errors).toBeUndefined();
      const page = answer.data?.ResourceSearch;
      expect(page?.total).toBeGreaterThanOrEqual(2);
      const ids = page?.resources.map((r) => `Patient/${r.id}`);
      expect(ids).toEqual(
        expect.arrayContaining([clinic.maria.profile?.reference, clinic.aisha.profile?.reference]),
      );
    });

    test('Maria sees only herself, and none of Aisha’s Observations', async () => {
      const patients = await search(maria, 'Patient', '_total=accurate');
      expect(patients.data?.ResourceSearch?.resources.map((r) => `Patient/${r.id}`)).toEqual([
        clinic.maria.profile?.reference,
      ]);
      const aishas = await search(
        maria,
        'Observation',
        `subject=${clinic.aisha.profile?.reference}&_total=accurate`,
      );
      expect(aishas.data?.ResourceSearch?.resources).toEqual([]);
      expect(aishas.data?.ResourceSearch?.total).toBe(0);
    });

    test('a bad search parameter is an error naming it, with no data', async () => {
      const answer = await search(chen, 'Observation', 'no-such-parameter=1');
      expect(answer.data?.ResourceSearch ?? null).toBeNull();
      expect(answer.errors?.[0]?.message).toMatch(/no-such-parameter/);
    });
  },
);
