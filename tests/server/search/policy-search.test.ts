// A criteria AccessPolicy inside the search SQL over real HTTP (SPEC §6, §7): a
// practitioner whose membership grants Observations he performed (`%profile`) or of one code (a named
// parameter), the Patients of one compartment (`_compartment` criteria) and that compartment's
// Encounters. Every read path answers exactly the allowed set, with exact totals.
import type {
  AccessPolicy,
  Bundle,
  Encounter,
  Observation,
  Patient,
  Practitioner,
  ProjectMembership,
  Resource,
} from '@medplum/fhirtypes';
import { combinePolicies } from '../../../src/server/access/policy';
import { readExportPage } from '../../../src/server/export/page-reader';
import { Repository, systemContext } from '../../../src/server/repo';
import type { RepositoryContext } from '../../../src/server/repo';
import { addMembership, createProject, createUser, signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

const CODE_X = 'http://loinc.org|8867-4';
const CODE_Y = 'http://loinc.org|29463-7';
const CODE_Z = 'http://loinc.org|8310-5';

const POLICY: AccessPolicy = {
  resourceType: 'AccessPolicy',
  name: 'Criteria practitioner',
  resource: [
    { resourceType: 'Observation', criteria: 'Observation?performer=%profile' },
    { resourceType: 'Observation', criteria: 'Observation?code=%code' },
    { resourceType: 'Patient', criteria: 'Patient?_compartment=%ward' },
    { resourceType: 'Encounter', compartment: { reference: '%ward' } },
    { resourceType: 'Practitioner', readonly: true },
  ],
};

describe.each(databases())(
  'issue #22 a criteria policy on every read path over HTTP on %s',
  (_engine, kind) => {
    let server: TestServer;
    let doctor: Tokens;
    let context: RepositoryContext;
    const ids: Record<string, string> = {};

    async function call<T = Bundle>(path: string, body?: unknown): Promise<{ status: number; body: T }> {
      const response = await fetch(`${server.fhirUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${doctor.access_token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as T };
    }

    /** The names (keys of `ids`) of a searchset's entries of one mode. */
    function names(bundle: Bundle, mode: 'match' | 'include' = 'match'): string[] {
      const byId = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
      return (bundle.entry ?? [])
        .filter((entry) => (entry.search?.mode ?? 'match') === mode)
        .map((entry) => byId.get(entry.resource?.id as string) ?? `unknown ${entry.resource?.id}`)
        .sort();
    }

    async function search(path: string, mode: 'match' | 'include' = 'match'): Promise<string[]> {
      const response = await call(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      return names(response.body, mode);
    }

    beforeAll(async () => {
      server = await startTestServer(kind, {}, { requireAuth: true });
      const project = await createProject(server.db, 'Criteria clinic');
      const system = new Repository(server.db, systemContext(project.id));
      const user = await createUser(server.db);
      const membership = await addMembership(server.db, user, project, 'Practitioner');
      const profile = membership.profile?.reference as string;
      ids.drA = profile.split('/')[1];
      const drB = await system.createResource<Practitioner>({
        resourceType: 'Practitioner',
        name: [{ family: 'B' }],
      });
      ids.drB = drB.id as string;
      for (const name of ['p1', 'p2', 'p3']) {
        const patient = await system.createResource<Patient>({
          resourceType: 'Patient',
          name: [{ family: `Ward${name}` }],
        });
        ids[name] = patient.id as string;
      }
      const observation = async (name: string, patient: string, performer: string, code: string) => {
        const [codeSystem, value] = code.split('|');
        const created = await system.createResource<Observation>({
          resourceType: 'Observation',
          status: 'final',
          code: { coding: [{ system: codeSystem, code: value }] },
          subject: { reference: `Patient/${ids[patient]}` },
          performer: [{ reference: `Practitioner/${ids[performer]}` }],
        });
        ids[name] = created.id as string;
      };
      await observation('a1', 'p1', 'drA', CODE_X);
      await observation('a2', 'p2', 'drA', CODE_Y);
      await observation('b1', 'p1', 'drB', CODE_X);
      await observation('c3', 'p3', 'drB', CODE_Z);
      await observation('b3', 'p3', 'drB', CODE_Y);
      for (const [name, patient] of [
        ['e1', 'p1'],
        ['e2', 'p2'],
      ]) {
        const encounter = await system.createResource<Encounter>({
          resourceType: 'Encounter',
          status: 'finished',
          class: { code: 'AMB' },
          subject: { reference: `Patient/${ids[patient]}` },
        });
        ids[name] = encounter.id as string;
      }
      const policy = await system.createResource<AccessPolicy>(POLICY);
      const access = [
        {
          policy: { reference: `AccessPolicy/${policy.id}` },
          parameter: [
            { name: 'code', valueString: CODE_Z },
            { name: 'ward', valueReference: { reference: `Patient/${ids.p1}` } },
          ],
        },
      ];
      await system.updateResource<ProjectMembership>({ ...membership, access });
      doctor = await signIn(server.baseUrl, user.email as string);
      context = {
        project: project.id,
        author: { reference: profile },
        access: {
          superAdmin: false,
          projectAdmin: false,
          profile: { reference: profile },
          membership: { reference: `ProjectMembership/${membership.id}` },
          policy: combinePolicies([{ policy, parameter: access[0].parameter }], { reference: profile }),
        },
      };
    });

    afterAll(async () => {
      await server.close();
    });

    test('search: the two Observation entries OR-ed, exactly, across pages and with exact totals', async () => {
      expect(await search('Observation')).toEqual(['a1', 'a2', 'c3']);
      const seen: string[] = [];
      for (let offset = 0; offset < 4; offset += 2) {
        const page = await call(`Observation?_count=2&_offset=${offset}&_total=accurate&_sort=_id`);
        expect(page.body.total).toBe(3);
        seen.push(...names(page.body));
      }
      expect(seen.sort()).toEqual(['a1', 'a2', 'c3']);
      expect((await call('Observation?_summary=count')).body.total).toBe(3);
      expect((await call(`Observation?code=${CODE_Y}&_summary=count`)).body.total).toBe(1);
      // Another performer's Observation of the same patient and code stays out.
      expect(await search(`Observation?subject=Patient/${ids.p1}`)).toEqual(['a1']);
      expect(await search(`Observation?_filter=code eq ${CODE_X}`)).toEqual(['a1']);
    });

    test('a _compartment criteria and a compartment entry: one ward', async () => {
      expect(await search('Patient')).toEqual(['p1']);
      expect((await call('Patient?_total=accurate')).body.total).toBe(1);
      expect(await search('Encounter')).toEqual(['e1']);
      // A type the policy does not name: nothing, not an error.
      expect(await search('Condition')).toEqual([]);
    });

    test('_include and _revinclude bring only what the policy allows', async () => {
      expect(await search('Observation?_include=Observation:subject', 'include')).toEqual(['p1']);
      // Without a target type: each type reached has its own rules.
      expect(
        await search('Observation?_include=Observation:performer&_include=Observation:patient', 'include'),
      ).toEqual(['drA', 'drB', 'p1'].sort());
      expect(await search('Patient?_revinclude=Observation:subject', 'include')).toEqual(['a1']);
      expect(await search('Patient?_revinclude=Encounter:subject', 'include')).toEqual(['e1']);
    });

    test('chains and _has see the linked resources through the policy', async () => {
      expect(await search(`Observation?subject:Patient.name=Wardp`)).toEqual(['a1']);
      expect(await search(`Encounter?subject:Patient.name=Wardp`)).toEqual(['e1']);
      expect(await search(`Patient?_has:Observation:subject:code=${CODE_X}`)).toEqual(['p1']);
      // b1 (drB's, about p1) is not his to see: it links nothing.
      expect(await search(`Patient?_has:Observation:subject:performer=Practitioner/${ids.drB}`)).toEqual([]);
    });

    test('GraphQL lists and reverse references', async () => {
      const list = await call<{ data: { ObservationList: { id: string }[] } }>('$graphql', {
        query: '{ ObservationList(_count: 100) { id } }',
      });
      expect(list.body.data.ObservationList.map((o) => o.id).sort()).toEqual([ids.a1, ids.a2, ids.c3].sort());
      const reverse = await call<{ data: { Patient: { ObservationList: { id: string }[] } } }>('$graphql', {
        query: `query ($id: ID!) { Patient(id: $id) { ObservationList(_reference: subject) { id } } }`,
        variables: { id: ids.p1 },
      });
      expect(reverse.body.data.Patient.ObservationList.map((o) => o.id)).toEqual([ids.a1]);
    });

    test('history and vread: versions of what the policy allows only', async () => {
      const history = await call('Observation/_history?_count=100');
      expect(history.status).toBe(200);
      expect(names(history.body)).toEqual(['a1', 'a2', 'c3']);
      const hidden = await call<Resource>(
        `Observation/${ids.b1}/_history/${await versionOf('Observation', ids.b1)}`,
      );
      expect(hidden.status).toBe(404);
      const shown = await call<Resource>(
        `Observation/${ids.a1}/_history/${await versionOf('Observation', ids.a1)}`,
      );
      expect(shown.status).toBe(200);
    });

    async function versionOf(type: string, id: string): Promise<string> {
      const resource = await new Repository(server.db, systemContext()).readResource(type, id);
      return resource.meta?.versionId as string;
    }

    test('$everything holds the ward patient and what the policy allows of her compartment', async () => {
      const everything = await call(`Patient/${ids.p1}/$everything`);
      expect(everything.status).toBe(200);
      expect(names(everything.body)).toEqual(['a1', 'e1', 'p1']);
    });

    test('export pages hold exactly the allowed set', async () => {
      const scope = {
        context,
        level: 'system' as const,
        patients: undefined,
        since: undefined,
        transactionTime: new Date(Date.now() + 60_000).toISOString(),
      };
      const exported = async (type: string) =>
        (await readExportPage(server.db, scope, type, undefined, 100)).lines
          .map((line) => (JSON.parse(line) as Resource).id as string)
          .sort();
      expect(await exported('Observation')).toEqual([ids.a1, ids.a2, ids.c3].sort());
      expect(await exported('Patient')).toEqual([ids.p1]);
    });
  },
);
