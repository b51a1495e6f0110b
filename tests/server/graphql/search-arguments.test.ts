// The common search arguments of every TypeList / TypeConnection / reverse lookup (
// Medplum conformance): _filter, _count, _offset, _sort, _id, _lastUpdated and _compartment each
// answer what the same REST search answers on the same data, refuse what it refuses (naming the
// argument), keep the caller's access rules, and _count still prices the query for GRAPHQL_MAX_COST.
import { databases } from '../support/test-databases';
import { getJson } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { idOf, issueTexts, postGraphQL, startDemoClinic } from '../../graphql/support/graphql-fixtures';
import type { DemoClinic } from '../../graphql/support/graphql-fixtures';

type Args = Record<string, string | number>;

interface Found {
  id: string;
  meta?: { lastUpdated?: string };
}

interface OutcomeIssue {
  details?: { text?: string };
  expression?: string[];
}

interface SearchBundle {
  total?: number;
  entry?: { resource: Found }[];
}

/** `_count: 2, _filter: "name eq x"`: argument values as GraphQL literals (JSON strings are valid ones). */
function argList(args: Args): string {
  return Object.entries(args)
    .map(([name, value]) => `${name}: ${typeof value === 'number' ? value : JSON.stringify(value)}`)
    .join(', ');
}

describe.each(databases())('issue #20 GraphQL search arguments as REST search on %s', (_engine, kind) => {
  let clinic: DemoClinic;

  beforeAll(async () => {
    clinic = await startDemoClinic(kind);
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  async function rest(tokens: Tokens, resourceType: string, args: Args): Promise<SearchBundle> {
    const query = new URLSearchParams(Object.entries(args).map(([name, value]) => [name, String(value)]));
    const { status, body } = await getJson<SearchBundle>(`${clinic.server.fhirUrl}${resourceType}?${query}`, {
      authorization: `Bearer ${tokens.access_token}`,
    });
    expect(status).toBe(200);
    return body;
  }

  async function restIds(tokens: Tokens, resourceType: string, args: Args): Promise<string[]> {
    return ((await rest(tokens, resourceType, args)).entry ?? []).map((entry) => entry.resource.id);
  }

  async function listIds(tokens: Tokens, resourceType: string, args: Args): Promise<string[]> {
    const field = `${resourceType}List`;
    const { status, body } = await postGraphQL<Record<string, Found[]>>(
      clinic.server,
      tokens,
      `{ ${field}(${argList(args)}) { id } }`,
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    return (body.data?.[field] ?? []).map((resource) => resource.id);
  }

  /** The same search through TypeList and through REST: same ids, same order. */
  async function expectSameAsRest(tokens: Tokens, resourceType: string, args: Args): Promise<string[]> {
    const ids = await listIds(tokens, resourceType, args);
    expect(ids).toEqual(await restIds(tokens, resourceType, args));
    return ids;
  }

  it('_filter selects what the REST _filter selects', async () => {
    const all = await expectSameAsRest(clinic.chen, 'Patient', { _count: 100, _sort: '_id' });
    const garcia = await expectSameAsRest(clinic.chen, 'Patient', {
      _filter: 'family eq Garcia',
      _count: 100,
      _sort: '_id',
    });
    expect(garcia).toEqual([idOf(clinic.mariaRef)]);
    expect(all.length).toBeGreaterThan(garcia.length);
    const aishas = await expectSameAsRest(clinic.chen, 'Observation', {
      _filter: `subject re ${clinic.aishaRef} or subject re ${clinic.mariaRef}`,
      _count: 200,
      _sort: '_id',
    });
    const onlyAisha = await expectSameAsRest(clinic.chen, 'Observation', {
      _filter: `subject re ${clinic.aishaRef}`,
      _count: 200,
      _sort: '_id',
    });
    expect(onlyAisha.length).toBeGreaterThan(0);
    expect(aishas.length).toBeGreaterThan(onlyAisha.length);
  });

  it('_count and _offset page as REST does', async () => {
    const all = await expectSameAsRest(clinic.chen, 'Observation', { _count: 200, _sort: '_id' });
    expect(all.length).toBeGreaterThan(5);
    const first = await expectSameAsRest(clinic.chen, 'Observation', { _count: 3, _sort: '_id' });
    expect(first).toEqual(all.slice(0, 3));
    const second = await expectSameAsRest(clinic.chen, 'Observation', {
      _count: 3,
      _offset: 2,
      _sort: '_id',
    });
    expect(second).toEqual(all.slice(2, 5));
  });

  it('_sort orders as REST does, descending with -', async () => {
    const up = await expectSameAsRest(clinic.chen, 'Observation', { _count: 200, _sort: '_lastUpdated,_id' });
    const down = await expectSameAsRest(clinic.chen, 'Observation', {
      _count: 200,
      _sort: '-_lastUpdated,-_id',
    });
    expect(down).toEqual([...up].reverse());
    await expectSameAsRest(clinic.chen, 'Observation', { _count: 200, _sort: '-date,_id' });
  });

  it('_id selects the resources named', async () => {
    const all = await listIds(clinic.chen, 'Observation', { _count: 200, _sort: '_id' });
    const picked = await expectSameAsRest(clinic.chen, 'Observation', {
      _id: `${all[3]},${all[1]}`,
      _sort: '_id',
    });
    expect(picked).toEqual([all[1], all[3]]);
  });

  it('_lastUpdated compares the version time as REST does', async () => {
    const { body } = await postGraphQL<{ ObservationList: Found[] }>(
      clinic.server,
      clinic.chen,
      '{ ObservationList(_count: 200, _sort: "_lastUpdated") { id meta { lastUpdated } } }',
    );
    const times = (body.data?.ObservationList ?? []).map((o) => o.meta?.lastUpdated ?? '');
    const middle = times[Math.floor(times.length / 2)];
    expect(times[0] < middle).toBe(true);
    const later = await expectSameAsRest(clinic.chen, 'Observation', {
      _lastUpdated: `ge${middle}`,
      _count: 200,
      _sort: '_id',
    });
    const earlier = await expectSameAsRest(clinic.chen, 'Observation', {
      _lastUpdated: `lt${middle}`,
      _count: 200,
      _sort: '_id',
    });
    expect(later.length).toBeGreaterThan(0);
    expect(earlier.length).toBeGreaterThan(0);
    expect(later.length + earlier.length).toBe(times.length);
  });

  it("_compartment selects a patient's compartment as REST does", async () => {
    const all = await expectSameAsRest(clinic.chen, 'Observation', { _count: 200, _sort: '_id' });
    const aishas = await expectSameAsRest(clinic.chen, 'Observation', {
      _compartment: clinic.aishaRef,
      _count: 200,
      _sort: '_id',
    });
    expect(aishas.length).toBeGreaterThan(0);
    expect(all.length).toBeGreaterThan(aishas.length);
  });

  it('TypeConnection takes the same arguments; its count is the REST total', async () => {
    const args: Args = {
      _filter: `subject re ${clinic.mariaRef}`,
      _count: 2,
      _offset: 1,
      _sort: '-date,_id',
    };
    const { body } = await postGraphQL<{
      ObservationConnection: {
        count: number;
        offset: number;
        pageSize: number;
        edges: { resource: Found }[];
      };
    }>(
      clinic.server,
      clinic.chen,
      `{ ObservationConnection(${argList(args)}) { count offset pageSize edges { resource { id } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const bundle = await rest(clinic.chen, 'Observation', { ...args, _total: 'accurate' });
    const connection = body.data?.ObservationConnection;
    expect(connection?.count).toBe(bundle.total);
    expect(connection?.offset).toBe(1);
    expect(connection?.pageSize).toBe(2);
    expect(connection?.edges.map((edge) => edge.resource.id)).toEqual(
      (bundle.entry ?? []).map((entry) => entry.resource.id),
    );
  });

  it('reverse lookups take them too, inside the parent resource', async () => {
    const all = await restIds(clinic.chen, 'Observation', {
      subject: clinic.mariaRef,
      _count: 200,
      _sort: '_id',
    });
    const args: Args = { _id: `${all[0]},${all[2]},${all[4]}`, _sort: '-_id', _count: 2 };
    const { body } = await postGraphQL<{ Patient: { ObservationList: Found[] } }>(
      clinic.server,
      clinic.chen,
      `query ($id: ID!) { Patient(id: $id) { ObservationList(_reference: subject, ${argList(args)}) { id } } }`,
      { id: idOf(clinic.mariaRef) },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data?.Patient.ObservationList.map((o) => o.id)).toEqual(
      await restIds(clinic.chen, 'Observation', { ...args, subject: clinic.mariaRef }),
    );
    expect(body.data?.Patient.ObservationList.map((o) => o.id)).toEqual([all[4], all[2]]);
  });

  describe('bad arguments are GraphQL errors naming the argument, as REST answers 400 naming the parameter', () => {
    it.each([
      ['a malformed _filter', 'Patient', { _filter: 'family eq' }, '_filter'],
      ['a _filter on an unknown parameter', 'Patient', { _filter: 'nonsense eq 1' }, '_filter'],
      ['an unknown _sort', 'Patient', { _sort: '-nonsense' }, '_sort'],
      ['a malformed _lastUpdated', 'Observation', { _lastUpdated: 'gex2026' }, '_lastUpdated'],
      ['a malformed _compartment', 'Observation', { _compartment: 'not a reference' }, '_compartment'],
    ])('%s', async (_label, resourceType, args: Args, argument) => {
      const field = `${resourceType}List`;
      const { status, body } = await postGraphQL(
        clinic.server,
        clinic.chen,
        `{ ${field}(${argList(args)}) { id } }`,
      );
      expect(status).toBe(200);
      expect(body.data?.[field]).toBeNull();
      expect(body.errors).toHaveLength(1);
      const error = body.errors?.[0];
      expect(error?.path).toEqual([field]);
      expect(error?.extensions?.status).toBe(400);
      const issue = (error?.extensions?.outcome as { issue: OutcomeIssue[] }).issue[0];
      expect(issue.expression).toEqual([argument]);

      const query = new URLSearchParams(Object.entries(args).map(([name, value]) => [name, String(value)]));
      const refused = await getJson<{ issue: OutcomeIssue[] }>(
        `${clinic.server.fhirUrl}${resourceType}?${query}`,
        {
          authorization: `Bearer ${clinic.chen.access_token}`,
        },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.issue[0].expression).toEqual([argument]);
      // The same text as REST's, and the message names the argument as the error's own text does.
      expect(issue.details?.text).toBe(refused.body.issue[0].details?.text);
      expect(error?.message).toBe(`${issue.details?.text} (${argument})`);
    });
  });

  describe("a patient cannot reach another patient's resources through the arguments", () => {
    it('_compartment of another patient finds nothing; her own finds hers', async () => {
      expect(
        await expectSameAsRest(clinic.maria, 'Observation', { _compartment: clinic.aishaRef, _count: 200 }),
      ).toEqual([]);
      expect(
        (await expectSameAsRest(clinic.maria, 'Observation', { _compartment: clinic.mariaRef, _count: 200 }))
          .length,
      ).toBeGreaterThan(0);
      expect(await expectSameAsRest(clinic.maria, 'Patient', { _compartment: clinic.aishaRef })).toEqual([]);
    });

    it('_filter naming another patient finds nothing; or-ed with her own finds only hers', async () => {
      expect(
        await expectSameAsRest(clinic.maria, 'Observation', {
          _filter: `subject re ${clinic.aishaRef}`,
          _count: 200,
        }),
      ).toEqual([]);
      const own = await expectSameAsRest(clinic.maria, 'Observation', {
        _filter: `subject re ${clinic.mariaRef}`,
        _count: 200,
        _sort: '_id',
      });
      expect(own.length).toBeGreaterThan(0);
      expect(
        await expectSameAsRest(clinic.maria, 'Observation', {
          _filter: `subject re ${clinic.aishaRef} or subject re ${clinic.mariaRef}`,
          _count: 200,
          _sort: '_id',
        }),
      ).toEqual(own);
      expect(
        await listIds(clinic.maria, 'Patient', { _filter: 'family eq Garcia or family eq Khan' }),
      ).toEqual([idOf(clinic.mariaRef)]);
    });
  });

  it('_count as an argument (literal or variable) still prices the query for GRAPHQL_MAX_COST', async () => {
    // 1 + 200 for the patients, and 200 × (1 + 100) for their observations: over the 10000 default.
    const costly = await postGraphQL(
      clinic.server,
      clinic.chen,
      `query ($count: Int) {
        PatientList(_count: 200, _filter: "family pr true") {
          ObservationList(_reference: subject, _count: $count, _sort: "-_lastUpdated") { id }
        }
      }`,
      { count: 100 },
    );
    expect(costly.status).toBe(400);
    expect(issueTexts(costly.body).join(' | ')).toMatch(
      /Query too costly: it may load about 20401 resources/,
    );
    const cheap = await postGraphQL(
      clinic.server,
      clinic.chen,
      `query ($count: Int) {
        PatientList(_count: 200, _filter: "family pr true") {
          ObservationList(_reference: subject, _count: $count, _sort: "-_lastUpdated") { id }
        }
      }`,
      { count: 5 },
    );
    expect(cheap.status).toBe(200);
    expect(cheap.body.errors).toBeUndefined();
  });
});
