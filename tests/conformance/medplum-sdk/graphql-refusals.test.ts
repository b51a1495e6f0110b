// Medplum's own SDK as the referee for what $graphql refuses (SPEC §6 access, §7 $graphql):
// MedplumClient 5.2.13, unchanged. A patient's or a practitioner's search of a project-administration
// type is refused with the same message REST gives (never an empty list), an admin's is answered, and
// a document past a size bound is a 400 OperationOutcome the client throws, before any of it runs.
import './support/node-websocket';
import type { MedplumClient } from '@medplum/core';
import { startClinic } from '../../server/operations/support/clinic';
import type { Clinic } from '../../server/operations/support/clinic';
import { databases } from '../../server/support/test-databases';
import { MAX_ALIASES, MAX_NESTING } from '../../../src/server/graphql/document-bounds';
import { tokenClient } from './support/token-client';
import { outcomeOf } from './support/medplum-client';

interface GraphqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string }[];
}

describe.each(databases())("Medplum's MedplumClient: $graphql refusals on %s", (_engine, kind) => {
  let clinic: Clinic;
  let maria: MedplumClient;
  let chen: MedplumClient;
  let admin: MedplumClient;

  beforeAll(async () => {
    clinic = await startClinic(kind);
    maria = tokenClient(clinic.server.baseUrl, clinic.maria);
    chen = tokenClient(clinic.server.baseUrl, clinic.chen);
    admin = tokenClient(clinic.server.baseUrl, clinic.admin);
  });

  afterAll(async () => {
    await clinic.server.close();
  });

  test.each(['ClientApplication', 'AccessPolicy', 'ProjectMembership'])(
    "a patient's and a practitioner's %sList is refused as REST refuses it; the admin's is answered",
    async (resourceType) => {
      const query = `{ ${resourceType}List { id } }`;
      for (const caller of [maria, chen]) {
        const answer = (await caller.graphql(query)) as GraphqlAnswer;
        expect(answer.data?.[`${resourceType}List`] ?? null).toBeNull();
        expect(answer.errors?.map((error) => error.message)).toEqual([
          `Forbidden: ${resourceType} is not accessible`,
        ]);
        const rest = await caller.searchResources(resourceType as 'AccessPolicy').catch(outcomeOf);
        expect(rest).toEqual([
          expect.objectContaining({ text: `Forbidden: ${resourceType} is not accessible` }),
        ]);
      }
      const answered = (await admin.graphql(query)) as GraphqlAnswer;
      expect(answered.errors).toBeUndefined();
      expect(Array.isArray(answered.data?.[`${resourceType}List`])).toBe(true);
    },
  );

  test("whole-schema introspection through the client's graphql(): answered whole, for a patient too", async () => {
    const answer = (await maria.graphql('{ __schema { queryType { name } types { name } } }')) as {
      data?: { __schema?: { queryType: { name: string }; types: { name: string }[] } };
      errors?: unknown[];
    };
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.__schema?.queryType.name).toBe('QueryType');
    const names = answer.data?.__schema?.types.map((type) => type.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(['Patient', 'Observation', 'QueryType', '__Schema']));
    expect(new Set(names).size).toBe(names.length);
  });

  test('a document nested too deep or with too many aliases is a 400 the client throws', async () => {
    const deep = `${'{ a '.repeat(MAX_NESTING + 1)}${'}'.repeat(MAX_NESTING + 1)}`;
    const tooDeep = await maria.graphql(deep).then(
      () => undefined,
      (err: unknown) => outcomeOf(err),
    );
    expect(tooDeep?.[0]?.text).toBe(
      `Query too deep: brackets nest ${MAX_NESTING + 1} levels, the limit is ${MAX_NESTING}`,
    );
    const aliases = Array.from({ length: MAX_ALIASES + 1 }, (_, i) => `a${i}: PatientList { id }`).join(' ');
    const tooMany = await maria.graphql(`{ ${aliases} }`).then(
      () => undefined,
      (err: unknown) => outcomeOf(err),
    );
    expect(tooMany?.[0]?.text).toBe(
      `Query too large: it has ${MAX_ALIASES + 1} aliased fields, the limit is ${MAX_ALIASES}`,
    );
    // Within the bounds, the same client's query is answered.
    const fine = (await maria.graphql('{ PatientList { id } }')) as GraphqlAnswer;
    expect(fine.errors).toBeUndefined();
  });
});
