// The per-type search table (src/server/search/typed-tables.ts, the storage designed for speed at
// scale): every search it answers must return what the generic SQL
// returns, in the same order and with the same total, and the writer, the migration's backfill and
// deletes must keep it equal to what the generic tables say.
import type { AccessPolicy, DiagnosticReport, Observation, Patient } from '@medplum/fhirtypes';
import fc from 'fast-check';
import { parseSearchRequest } from '../../../src/fhir/search';
import { combinePolicies } from '../../../src/server/access/policy';
import type { Database, Queryable, SqlValue } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import type { RepositoryContext } from '../../../src/server/repo';
import { executeSearch } from '../../../src/server/search/search-engine';
import { backfillTypedTable, systemCodeKey, TYPED_TABLES } from '../../../src/server/search/typed-tables';
import { databases } from '../support/test-databases';
import { patientContext } from './search-support';

const LOINC = 'http://loinc.org';
// A system with a bar: 'odd|sys' + 'x' must not be found as 'odd' + 'sys|x'.
const SYSTEMS = [LOINC, 'http://snomed.info/sct', 'odd|sys', 'odd'];
const CODES = ['8867-4', '8480-6', 'sys|x', 'x', '29463-7'];
const PATIENTS = ['tp-0', 'tp-1', 'tp-2', 'tp-3'];
const PROJECT = 'typed-project';

const codingArb = fc
  .record({
    system: fc.option(fc.constantFrom(...SYSTEMS), { nil: undefined }),
    code: fc.constantFrom(...CODES),
  })
  .map(({ system, code }) => (system ? { system, code } : { code }));
const dayArb = fc
  .record({ month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) })
  .map(({ month, day }) => `2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
const effectiveArb = fc.oneof(
  fc.constant({}),
  dayArb.map((day) => ({ effectiveDateTime: day })),
  fc
    .tuple(dayArb, dayArb)
    .map(([a, b]) => ({ effectivePeriod: { start: a < b ? a : b, end: a < b ? b : a } })),
  dayArb.map((day) => ({ effectivePeriod: { start: day } })),
);
const subjectArb = fc.oneof(
  fc.constantFrom(...PATIENTS).map((id) => ({ reference: `Patient/${id}` })),
  fc.constantFrom(...PATIENTS).map((id) => ({ reference: `Group/${id}` })),
  fc.constant(undefined),
);
const observationArb = fc.record({
  codings: fc.array(codingArb, { minLength: 1, maxLength: 3 }),
  effective: effectiveArb,
  subject: subjectArb,
});

const codeValueArb = fc.oneof(
  fc.constantFrom(...CODES),
  fc.tuple(fc.constantFrom(...SYSTEMS), fc.constantFrom(...CODES)).map(([s, c]) => `${esc(s)}|${esc(c)}`),
  fc.constantFrom(...CODES).map((c) => `|${esc(c)}`),
);
const pageArbs = {
  codes: fc.option(fc.array(codeValueArb, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  sort: fc.constantFrom(undefined, 'date', '-date', '-date,-_lastUpdated'),
  count: fc.constantFrom(2, 5, 50),
  offset: fc.constantFrom(0, 3),
};
const queryArb = fc.record({
  patient: fc.oneof(
    fc.constantFrom(...PATIENTS).map((id) => `Patient/${id}`),
    fc.constantFrom(...PATIENTS),
    fc.constantFrom(...PATIENTS).map((id) => `Group/${id}`),
  ),
  ...pageArbs,
});

// The same searches by subject: Patient/{id} (`subject:Patient={id}` parses to it), absolute URLs
// (this server's and another's), and the forms the table cannot answer alone: an untyped id that
// may name a Group, a Group, several values, :not, :missing, a chain.
const subjectQueryArb = fc.record({
  patient: fc.oneof(
    fc.constantFrom(...PATIENTS).map((id) => `subject=Patient/${id}`),
    fc.constantFrom(...PATIENTS).map((id) => `subject:Patient=${id}`),
    fc.constantFrom(...PATIENTS).map((id) => `subject=http://example.org/fhir/Patient/${id}`),
    fc.constantFrom(...PATIENTS).map((id) => `subject=https://other.example/Patient/${id}/_history/3`),
    fc.constantFrom(...PATIENTS).map((id) => `subject=${id}`),
    fc.constantFrom(...PATIENTS).map((id) => `subject=Group/${id}`),
    fc.constantFrom(...PATIENTS).map((id) => `subject=Patient/${id},Group/${id}`),
    fc.constantFrom(...PATIENTS).map((id) => `subject:not=Patient/${id}`),
    fc.constantFrom('subject:missing=true', 'subject:missing=false', 'subject:Patient.name=tp-1'),
  ),
  ...pageArbs,
});

/**
 * Subjects beside the random data's Patient/{id} and Group/{id}: absolute URLs, versions, other
 * types, an untyped id, a malformed version and an identifier only, so that searches by subject
 * meet every form the writer reads a Patient from (or does not).
 */
const ODD_SUBJECTS: Observation['subject'][] = [
  { reference: 'http://example.org/fhir/Patient/tp-1' },
  { reference: 'https://other.example/Patient/tp-1' },
  { reference: 'https://other.example/Patient/tp-2/_history/3' },
  { reference: 'Patient/tp-0/_history/2' },
  { reference: 'Patient/tp-3/_history/a_b' },
  { reference: 'Device/tp-1' },
  { reference: 'Location/tp-2' },
  { reference: 'tp-1' },
  { identifier: { system: 'urn:mrn', value: 'tp-1' } },
];

function esc(value: string): string {
  return value.replace(/[\\|,$]/g, (c) => `\\${c}`);
}

type QueryShape = typeof queryArb extends fc.Arbitrary<infer T> ? T : never;

/** The query's URL; `patient` is a value of the patient parameter, or a whole filter on subject. */
function queryUrl(q: QueryShape): string {
  const parts = [q.patient.includes('=') ? q.patient : `patient=${q.patient}`];
  if (q.codes) parts.push(`code=${q.codes.join(',')}`);
  if (q.sort) parts.push(`_sort=${q.sort}`);
  parts.push(`_count=${q.count}`, `_offset=${q.offset}`, '_total=accurate');
  return `Observation?${parts.join('&')}`;
}

/** A Queryable that remembers the SQL it runs. */
function recording(db: Database, log: string[]): Queryable {
  return {
    query(sql: string, params?: readonly SqlValue[]) {
      log.push(sql);
      return db.query(sql, params);
    },
  } as Queryable;
}

/** A practitioner whose Observations are limited by these criteria (entries OR-ed). */
function criteriaContext(criteria: string[]): RepositoryContext {
  const profile = { reference: 'Practitioner/typed-criteria' };
  const policy: AccessPolicy = {
    resourceType: 'AccessPolicy',
    resource: criteria.map((c) => ({ resourceType: 'Observation', criteria: c })),
  };
  return {
    project: PROJECT,
    author: profile,
    access: {
      superAdmin: false,
      projectAdmin: false,
      profile,
      membership: { reference: 'ProjectMembership/typed-criteria' },
      policy: combinePolicies([{ policy }], profile),
    },
  };
}

describe.each(databases())('the per-type Observation table on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;
  const spec = TYPED_TABLES[0];

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext(PROJECT));
    for (const id of PATIENTS) {
      await repo.createResource<Patient>(
        { resourceType: 'Patient', name: [{ family: id }] },
        { assignedId: id },
      );
    }
    const observations = fc.sample(observationArb, { seed: 87, numRuns: 160 });
    for (const o of observations) {
      await repo.createResource<Observation>({
        resourceType: 'Observation',
        status: 'final',
        code: { coding: o.codings },
        ...(o.subject ? { subject: o.subject } : {}),
        ...o.effective,
      });
    }
    for (const [i, subject] of ODD_SUBJECTS.entries()) {
      for (const code of CODES.slice(0, 3)) {
        await repo.createResource<Observation>({
          resourceType: 'Observation',
          status: 'final',
          code: { coding: [{ system: LOINC, code }] },
          subject,
          effectiveDateTime: `2024-06-${String(i + 1).padStart(2, '0')}`,
        });
      }
    }
  }, 120_000);

  afterAll(async () => {
    await db.close();
  });

  async function typedRows(): Promise<string[]> {
    const { rows } = await db.query<{ row: string }>(
      `SELECT concat_ws(' ', resource_id, patient_id, array_to_string(ARRAY(SELECT unnest(codes) ORDER BY 1), ','),
         date_low, date_high) AS row FROM ${spec.table} ORDER BY 1`,
    );
    return rows.map((r) => r.row);
  }

  async function bothWays(url: string, context: RepositoryContext = systemContext(PROJECT)) {
    const request = { ...parseSearchRequest(url) };
    const log: string[] = [];
    const typed = await executeSearch(recording(db, log), context, request);
    const generic = await executeSearch(db, context, request, { typedTables: false });
    return {
      typed: { ids: typed.resources.map((r) => r.id), total: typed.total, more: typed.hasMore },
      generic: { ids: generic.resources.map((r) => r.id), total: generic.total, more: generic.hasMore },
      usedTable: log.some((sql) => sql.includes(spec.table)),
    };
  }

  it('answers patient + code + date searches exactly as the generic SQL (random data and queries)', async () => {
    let used = 0;
    let matched = 0;
    for (const q of fc.sample(queryArb, { seed: 2026, numRuns: 150 })) {
      const url = queryUrl(q);
      const { typed, generic, usedTable } = await bothWays(url);
      expect({ url, ...typed }).toEqual({ url, ...generic });
      if (usedTable) used++;
      if (typed.ids.length > 0) matched++;
    }
    // The sample must exercise the table, with matches, and fall back where it cannot answer.
    expect(used).toBeGreaterThan(60);
    expect(used).toBeLessThan(150);
    expect(matched).toBeGreaterThan(40);
  });

  it('answers subject searches exactly as the generic SQL, on the table when they name one Patient (random data and queries)', async () => {
    // Patient/{id}, subject:Patient={id} and absolute URLs ending in Patient/{id} name one Patient.
    const namesOnePatient = /^subject(=Patient\/[^,]+|:Patient=[^,]+|=https?:\/\/[^,]+\/Patient\/[^,]+)$/;
    let used = 0;
    let matched = 0;
    for (const q of fc.sample(subjectQueryArb, { seed: 2027, numRuns: 150 })) {
      const url = queryUrl(q);
      const { typed, generic, usedTable } = await bothWays(url);
      expect({ url, ...typed, usedTable }).toEqual({
        url,
        ...generic,
        usedTable: namesOnePatient.test(q.patient),
      });
      if (usedTable) used++;
      if (typed.ids.length > 0) matched++;
    }
    expect(used).toBeGreaterThan(40);
    expect(used).toBeLessThan(120);
    expect(matched).toBeGreaterThan(60);
  });

  it("writes a Patient's row for every Observation whose subject is that Patient", async () => {
    // What subject=Patient/{id} finds in the shared tables is what the table holds for {id}.
    const { rows: bySubject } = await db.query<{ pair: string }>(
      `SELECT DISTINCT resource_id || ' ' || target_id AS pair FROM search_reference
       WHERE resource_type = 'Observation' AND code = $1 AND target_type = 'Patient' AND target_id IS NOT NULL
       ORDER BY 1`,
      [spec.subjectParam as string],
    );
    const { rows: inTable } = await db.query<{ pair: string }>(
      `SELECT resource_id || ' ' || patient_id AS pair FROM ${spec.table} ORDER BY 1`,
    );
    expect(inTable).toEqual(bySubject);
    // The data holds Patient subjects in several forms, and subjects that are not Patients.
    expect(bySubject.length).toBeGreaterThan(40);
    const { rows: others } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM search_reference
       WHERE resource_type = 'Observation' AND code = $1 AND target_type IS DISTINCT FROM 'Patient'`,
      [spec.subjectParam as string],
    );
    expect(others[0].n).toBeGreaterThan(20);
  });

  it('is used for the vitals query and not for forms it cannot answer', async () => {
    expect(
      (await bothWays(`Observation?patient=Patient/tp-1&code=${LOINC}|8867-4&_sort=-date`)).usedTable,
    ).toBe(true);
    expect((await bothWays('Observation?patient=tp-1&_sort=-date')).usedTable).toBe(true);
    for (const url of [
      `Observation?subject=Patient/tp-1&code=${LOINC}|8867-4&_sort=-date`,
      `Observation?subject:Patient=tp-1&code=${LOINC}|8867-4&_sort=-date`,
      'Observation?subject=http://example.org/fhir/Patient/tp-1&_sort=-date',
    ]) {
      const { typed, generic, usedTable } = await bothWays(url);
      expect({ url, usedTable }).toEqual({ url, usedTable: true });
      expect(typed).toEqual(generic);
    }
    for (const url of [
      'Observation?patient=Patient/tp-1,Patient/tp-2',
      'Observation?patient:missing=false&code=x',
      'Observation?patient=Group/tp-1',
      'Observation?code=x&_sort=-date',
      'Observation?subject=tp-1&_sort=-date',
      'Observation?subject=Group/tp-1&_sort=-date',
      'Observation?subject=Device/tp-1',
      'Observation?subject=Patient/tp-1,Patient/tp-2',
      'Observation?subject:not=Patient/tp-1',
      'Observation?subject:missing=false&code=x',
      'Observation?subject:Patient.name=tp-1',
      'Observation?subject:identifier=urn:mrn|tp-1',
      'Observation?subject=urn:uuid:5d0f6a40-2f5c-4b8e-9d7a-1f2e3d4c5b6a',
    ]) {
      const { typed, generic, usedTable } = await bothWays(url);
      expect({ url, usedTable }).toEqual({ url, usedTable: false });
      expect(typed).toEqual(generic);
    }
  });

  it("keeps the caller's access rules: a patient sees only her own Observations through it", async () => {
    const asPatient = patientContext(PROJECT, 'tp-2');
    const own = await bothWays('Observation?patient=tp-2&_sort=-date&_total=accurate', asPatient);
    expect(own.usedTable).toBe(true);
    expect(own.typed).toEqual(own.generic);
    expect(own.typed.ids.length).toBeGreaterThan(0);
    const other = await bothWays('Observation?patient=tp-1&_sort=-date&_total=accurate', asPatient);
    expect(other.usedTable).toBe(true);
    expect(other.typed).toEqual({ ids: [], total: 0, more: false });
    expect(other.generic).toEqual(other.typed);
    const ownBySubject = await bothWays(
      'Observation?subject=Patient/tp-2&_sort=-date&_total=accurate',
      asPatient,
    );
    expect(ownBySubject.usedTable).toBe(true);
    expect(ownBySubject.typed).toEqual(own.typed);
    expect(ownBySubject.generic).toEqual(own.typed);
    const otherBySubject = await bothWays(
      'Observation?subject=Patient/tp-1&_sort=-date&_total=accurate',
      asPatient,
    );
    expect(otherBySubject.usedTable).toBe(true);
    expect(otherBySubject.typed).toEqual({ ids: [], total: 0, more: false });
    expect(otherBySubject.generic).toEqual(otherBySubject.typed);
  });

  it.each([
    ['patient', queryArb, 120, 40],
    ['subject', subjectQueryArb, 60, 15],
  ])(
    "SPEC §6 a policy's code criteria read the joined row's codes: the same rows as the generic SQL, and no token probe (by %s)",
    async (_by, arb, runs, least) => {
      let onTable = 0;
      const samples = fc.sample(fc.tuple(arb, fc.array(codeValueArb, { minLength: 1, maxLength: 3 })), {
        seed: 622,
        numRuns: runs,
      });
      for (const [q, criteriaCodes] of samples) {
        // Two entries OR-ed: the code criteria, and (with another filter the row cannot answer) a status one.
        const context = criteriaContext([
          `Observation?code=${criteriaCodes.join(',')}`,
          `Observation?code=${criteriaCodes[0]}&status=amended`,
        ]);
        const url = queryUrl(q);
        const request = { ...parseSearchRequest(url) };
        const log: string[] = [];
        const typed = await executeSearch(recording(db, log), context, request);
        const generic = await executeSearch(db, context, request, { typedTables: false });
        const answer = (r: typeof typed) => ({
          ids: r.resources.map((x) => x.id),
          total: r.total,
          more: r.hasMore,
        });
        expect({ url, criteriaCodes, ...answer(typed) }).toEqual({ url, criteriaCodes, ...answer(generic) });
        const [search] = log;
        if (search.includes(spec.table)) {
          onTable++;
          // Plain system|code and code values are conditions on the typed row; a |code value (no
          // system) keeps its filter's token probe, and the status filter always probes.
          const probes = (codes: string[] | undefined) => (codes?.some((c) => c.startsWith('|')) ? 1 : 0);
          const expected = probes(q.codes) + probes(criteriaCodes) + probes([criteriaCodes[0]]) + 1;
          expect({ url, criteriaCodes, probesToken: (search.match(/search_token/g) ?? []).length }).toEqual({
            url,
            criteriaCodes,
            probesToken: expected,
          });
        }
      }
      expect(onTable).toBeGreaterThan(least);
    },
  );

  it('SPEC §6 a code criteria is judged on the joined row of the searched resource only, not on linked ones', async () => {
    // The _has source Observations carry no joined row: the policy on them reads their content.
    const context = criteriaContext([`Observation?code=${LOINC}|8867-4`]);
    const log: string[] = [];
    const request = parseSearchRequest(
      `Observation?patient=tp-1&_has:Observation:has-member:code=${LOINC}|8480-6&_sort=-date`,
    );
    const typed = await executeSearch(recording(db, log), context, request);
    const generic = await executeSearch(db, context, request, { typedTables: false });
    expect(typed.resources.map((r) => r.id)).toEqual(generic.resources.map((r) => r.id));
    const count = (text: string) => log[0].split(text).length - 1;
    // One condition on the joined row (the policy on r); the policy on the _has source tests that
    // row's content; the _has filter's own code keeps its token probe.
    expect({
      typedCodes: count('typed.codes &&'),
      onContent: count('.content -> '),
      tokenProbes: count('search_token'),
    }).toEqual({ typedCodes: 1, onContent: 1, tokenProbes: 1 });
  });

  it("SPEC §6 a code criteria on a search with no joined row reads the row's content: the same rows as the token probes", async () => {
    const searchArb = fc.record({
      target: fc.constantFrom(
        undefined,
        'subject=tp-1',
        'subject=Group/tp-1',
        'patient=Group/tp-2',
        'patient=Patient/tp-1,Patient/tp-3',
      ),
      codes: fc.option(fc.array(codeValueArb, { minLength: 1, maxLength: 2 }), { nil: undefined }),
      sort: fc.constantFrom(undefined, 'date', '-date,-_lastUpdated'),
      count: fc.constantFrom(5, 50),
    });
    let onContent = 0;
    const samples = fc.sample(fc.tuple(searchArb, fc.array(codeValueArb, { minLength: 1, maxLength: 3 })), {
      seed: 2207,
      numRuns: 100,
    });
    for (const [q, criteriaCodes] of samples) {
      const context = criteriaContext([
        `Observation?code=${criteriaCodes.join(',')}`,
        `Observation?code=${criteriaCodes[0]}&status=amended`,
      ]);
      const parts = [q.target, q.codes && `code=${q.codes.join(',')}`, q.sort && `_sort=${q.sort}`];
      const url = `Observation?${[...parts.filter(Boolean), `_count=${q.count}`, '_total=accurate'].join('&')}`;
      const request = { ...parseSearchRequest(url) };
      const log: string[] = [];
      const fast = await executeSearch(recording(db, log), context, request);
      const generic = await executeSearch(db, context, request, { typedTables: false });
      const answer = (r: typeof fast) => ({
        ids: r.resources.map((x) => x.id),
        total: r.total,
        more: r.hasMore,
      });
      expect({ url, criteriaCodes, ...answer(fast) }).toEqual({ url, criteriaCodes, ...answer(generic) });
      const [search] = log;
      expect(search).not.toContain(spec.table);
      // Plain system|code and code criteria test the content; a |code value keeps its token probe.
      const plain = (codes: string[]) => !codes.some((c) => c.startsWith('|'));
      const onContentHere = (search.match(/r\.content -> /g) ?? []).length;
      expect({ url, criteriaCodes, onContentHere }).toEqual({
        url,
        criteriaCodes,
        onContentHere: (plain(criteriaCodes) ? 1 : 0) + (plain([criteriaCodes[0]]) ? 1 : 0),
      });
      if (onContentHere > 0) onContent++;
    }
    expect(onContent).toBeGreaterThan(40);
  });

  it('SPEC §6 a code criteria on _include targets reads their content: exactly the allowed Observations', async () => {
    const observations = (
      await repo.search<Observation>(parseSearchRequest('Observation?_count=40&_sort=_id'))
    ).resources;
    const reports: DiagnosticReport[] = [];
    for (let i = 0; i < 4; i++) {
      reports.push(
        await repo.createResource<DiagnosticReport>({
          resourceType: 'DiagnosticReport',
          status: 'final',
          code: { text: `panel ${i}` },
          subject: { reference: `Patient/tp-${i}` },
          result: observations.slice(i * 10, i * 10 + 10).map((o) => ({ reference: `Observation/${o.id}` })),
        }),
      );
    }
    const criteria = `Observation?code=${LOINC}|8867-4,x`;
    const profile = { reference: 'Practitioner/typed-include' };
    const policy: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Observation', criteria }, { resourceType: 'DiagnosticReport' }],
    };
    const context: RepositoryContext = {
      project: PROJECT,
      author: profile,
      access: {
        superAdmin: false,
        projectAdmin: false,
        profile,
        membership: { reference: 'ProjectMembership/typed-include' },
        policy: combinePolicies([{ policy }], profile),
      },
    };
    const allowed = new Set(
      (await repo.search<Observation>(parseSearchRequest(`${criteria}&_count=1000`))).resources.map(
        (o) => o.id,
      ),
    );
    const ids = reports.map((r) => r.id).join(',');
    const log: string[] = [];
    const found = await executeSearch(
      recording(db, log),
      context,
      parseSearchRequest(`DiagnosticReport?_id=${ids}&_include=DiagnosticReport:result`),
    );
    const linked = reports.flatMap((r) => (r.result ?? []).map((ref) => ref.reference?.split('/')[1]));
    const expected = linked.filter((id) => allowed.has(id)).sort();
    expect(expected.length).toBeGreaterThan(3);
    expect(expected.length).toBeLessThan(linked.length);
    expect(found.included.map((o) => o.id).sort()).toEqual(expected);
    const includeSql = log.find((sql) => sql.includes('JOIN resource r ON r.resource_type = l.target_type'));
    expect(includeSql).toContain('r.content -> ');
    expect(includeSql).not.toContain('search_token');

    for (const report of reports) {
      await repo.deleteResource('DiagnosticReport', report.id as string);
    }
  });

  it('follows updates and deletes, and the migration backfill builds the same rows', async () => {
    const created = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: LOINC, code: '8867-4' }] },
      subject: { reference: 'Patient/tp-3' },
      effectiveDateTime: '2030-01-01',
    });
    const find = (url: string) => bothWays(url).then((r) => r.typed.ids);
    expect(await find(`Observation?patient=tp-3&code=${LOINC}|8867-4&_sort=-date&_count=1`)).toEqual([
      created.id,
    ]);
    const { resource: moved } = await repo.updateResource<Observation>({
      ...created,
      subject: { reference: 'Patient/tp-0' },
      code: { coding: [{ system: LOINC, code: '8480-6' }] },
    });
    expect(await find(`Observation?patient=tp-3&code=${LOINC}|8867-4&_sort=-date&_count=1`)).not.toContain(
      created.id,
    );
    expect(await find(`Observation?patient=tp-0&code=${LOINC}|8480-6&_sort=-date&_count=1`)).toEqual([
      moved.id,
    ]);

    const written = await typedRows();
    await db.query(`DELETE FROM ${spec.table}`);
    await backfillTypedTable(db, spec);
    expect(await typedRows()).toEqual(written);

    await repo.deleteResource('Observation', created.id as string);
    expect(await find(`Observation?patient=tp-0&code=${LOINC}|8480-6&_sort=-date&_count=1`)).not.toContain(
      created.id,
    );
    const { rows } = await db.query(`SELECT 1 FROM ${spec.table} WHERE resource_id = $1`, [
      created.id as string,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('keys a system and code by the system length, so a bar in either stays apart', () => {
    expect(systemCodeKey('odd|sys', 'x')).toBe('7:odd|sysx');
    expect(systemCodeKey('odd', 'sys|x')).toBe('3:oddsys|x');
    expect(systemCodeKey('ü', 'x')).toBe('1:üx');
  });
});
