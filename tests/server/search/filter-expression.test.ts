// `_filter` (FHIR R4 search_filter.html) over real HTTP on each engine: and/or/not with
// parentheses, each operator on the parameter types it applies to, chains, matching and
// non-matching resources; malformed expressions answer 400 naming `_filter` and the character.
import type { Bundle, CapabilityStatement, Observation, OperationOutcome, Patient } from '@medplum/fhirtypes';
import { Repository, systemContext } from '../../../src/server/repo';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

const LOINC = 'http://loinc.org';

describe.each(databases())('_filter on %s', (_engine, kind) => {
  let server: TestServer;
  let peter: Patient;
  let petra: Patient;
  let anna: Patient;
  let heart: Observation;
  let weight: Observation;
  let glucose: Observation;

  beforeAll(async () => {
    server = await startTestServer(kind);
    const repo = new Repository(server.db, systemContext('filter-expression'));
    peter = await repo.createResource<Patient>({
      resourceType: 'Patient',
      gender: 'male',
      birthDate: '1990-05-01',
      name: [{ given: ['Peter'], family: 'Parker' }],
    });
    petra = await repo.createResource<Patient>({
      resourceType: 'Patient',
      gender: 'female',
      birthDate: '2014-11-01',
      name: [{ given: ['Petra'], family: 'Smith' }],
    });
    anna = await repo.createResource<Patient>({
      resourceType: 'Patient',
      birthDate: '2015-01-01',
      name: [{ given: ['Anna'], family: 'Lée' }],
    });
    heart = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: LOINC, code: '8867-4' }] },
      subject: { reference: `Patient/${peter.id}` },
      effectiveDateTime: '2020-01-15T10:00:00Z',
      valueQuantity: { value: 120, unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' },
    });
    weight = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'preliminary',
      code: { coding: [{ system: LOINC, code: '29463-7' }] },
      subject: { reference: `Patient/${petra.id}` },
      effectivePeriod: { start: '2020-01-31T00:00:00Z', end: '2020-02-02T00:00:00Z' },
      valueQuantity: { value: 20, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' },
    });
    glucose = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: LOINC, code: '2339-0' }] },
      subject: { reference: `Patient/${anna.id}` },
      effectiveDateTime: '2020-03-01',
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  async function get(type: string, filter: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${server.fhirUrl}${type}?_filter=${encodeURIComponent(filter)}&_count=100`);
    return { status: response.status, body: await response.json() };
  }

  async function ids(type: string, filter: string): Promise<string[]> {
    const { status, body } = await get(type, filter);
    expect({ filter, status }).toEqual({ filter, status: 200 });
    return ((body as Bundle).entry ?? []).map((e) => e.resource?.id as string).sort();
  }

  const sorted = (...resources: { id?: string }[]): string[] => resources.map((r) => r.id as string).sort();

  test('strings: co, sw, ew and eq compare folded values; not (…) keeps resources without a match', async () => {
    expect(await ids('Patient', 'name co "pet"')).toEqual(sorted(peter, petra));
    expect(await ids('Patient', 'name co "PET"')).toEqual(sorted(peter, petra));
    expect(await ids('Patient', 'not (name co "pet")')).toEqual(sorted(anna));
    expect(await ids('Patient', 'given sw pet')).toEqual(sorted(peter, petra));
    expect(await ids('Patient', 'given eq "pet"')).toEqual([]);
    expect(await ids('Patient', 'given eq "PETRA"')).toEqual(sorted(petra));
    expect(await ids('Patient', 'family ew "ker"')).toEqual(sorted(peter));
    expect(await ids('Patient', 'family eq "lee"')).toEqual(sorted(anna));
    expect(await ids('Patient', 'family ne "lee"')).toEqual(sorted(peter, petra));
  });

  test('and, or, not and parentheses; and binds tighter than or', async () => {
    expect(await ids('Patient', 'given eq "petra" and birthdate ge 2014-10-10')).toEqual(sorted(petra));
    expect(await ids('Patient', 'given eq "peter" and birthdate ge 2014-10-10')).toEqual([]);
    expect(await ids('Patient', '(gender eq male or gender eq female) and not (birthdate lt 2000)')).toEqual(
      sorted(petra),
    );
    expect(await ids('Patient', 'gender eq male or gender eq female and birthdate lt 2000')).toEqual(
      sorted(peter),
    );
    expect(await ids('Patient', '(gender eq male or gender eq female) and birthdate lt 2000')).toEqual(
      sorted(peter),
    );
    expect(await ids('Patient', 'not (not (gender eq female))')).toEqual(sorted(petra));
  });

  test('tokens: eq, ne (resources without the element match), pr, in and ni', async () => {
    expect(await ids('Patient', 'gender ne male')).toEqual(sorted(petra, anna));
    expect(await ids('Patient', 'gender pr false')).toEqual(sorted(anna));
    expect(await ids('Patient', 'gender pr true')).toEqual(sorted(peter, petra));
    expect(await ids('Observation', `code eq ${LOINC}|8867-4`)).toEqual(sorted(heart));
    expect(await ids('Observation', 'code eq http://snomed.info/sct|8867-4')).toEqual([]);
    const statuses = 'http://hl7.org/fhir/ValueSet/observation-status';
    expect(await ids('Observation', `status in ${statuses}`)).toEqual(sorted(heart, weight, glucose));
    expect(await ids('Observation', `status ni ${statuses} or status eq final`)).toEqual(
      sorted(heart, glucose),
    );
  });

  test('dates, quantities, references and chains', async () => {
    expect(await ids('Observation', 'date po 2020-01')).toEqual(sorted(heart, weight));
    expect(await ids('Observation', 'date po 2020-02-02')).toEqual(sorted(weight));
    expect(await ids('Observation', 'date eq 2020-01')).toEqual(sorted(heart));
    expect(await ids('Observation', 'date sa 2020-02')).toEqual(sorted(glucose));
    expect(await ids('Observation', 'value-quantity gt 100')).toEqual(sorted(heart));
    expect(await ids('Observation', 'value-quantity le 20|http://unitsofmeasure.org|kg')).toEqual(
      sorted(weight),
    );
    expect(await ids('Observation', `subject re Patient/${peter.id}`)).toEqual(sorted(heart));
    expect(
      await ids('Observation', `subject eq Patient/${anna.id} or subject eq Patient/${petra.id}`),
    ).toEqual(sorted(weight, glucose));
    expect(await ids('Observation', 'subject.name co "pet"')).toEqual(sorted(heart, weight));
    expect(await ids('Observation', 'not (subject.gender eq male)')).toEqual(sorted(weight, glucose));
    expect(
      await ids('Observation', `_id eq ${glucose.id} or _lastUpdated gt 2000-01-01 and status eq x`),
    ).toEqual(sorted(glucose));
  });

  test.each([
    ['name co', 'expected a value, found the end at character 8'],
    ['(name co "x"', "expected ')' closing the '(' at character 1"],
    ['name co "x', 'unterminated string at character 9'],
    ['name xx "a"', "unknown operator 'xx'"],
    ['nickname eq x', "unknown search parameter 'nickname' for Patient at character 1"],
    ['name eq x or birthdate eq 20xx', "invalid value '20xx' for 'birthdate'"],
    ['gender co "m"', "operator 'co' does not apply to token parameter 'gender'"],
    ['name[given eq x].family eq y', 'filtered paths'],
    ['not name eq x', "expected '(' after 'not', found 'name' at character 5"],
    ['name eq x y', "expected 'and', 'or' or the end, found 'y' at character 11"],
    ['gender pr maybe', "'pr' takes true or false"],
    ['', 'empty expression'],
  ])('Patient?_filter=%s → 400 naming _filter (%s)', async (filter, text) => {
    const { status, body } = await get('Patient', filter);
    expect(status).toBe(400);
    const outcome = body as OperationOutcome;
    expect(outcome.resourceType).toBe('OperationOutcome');
    expect(outcome.issue[0].expression).toEqual(['_filter']);
    expect(outcome.issue[0].details?.text).toContain(text);
  });

  test('the CapabilityStatement declares _filter for every type', async () => {
    const statement = (await (await fetch(`${server.fhirUrl}metadata`)).json()) as CapabilityStatement;
    expect(statement.rest?.[0].searchParam?.map((p) => [p.name, p.type])).toContainEqual([
      '_filter',
      'special',
    ]);
  });

  test('a value set that cannot be expanded is a 400 at its comparison', async () => {
    const { status, body } = await get('Patient', 'gender eq male or gender in http://example.com/none');
    expect(status).toBe(400);
    const issue = (body as OperationOutcome).issue[0];
    expect(issue.expression).toEqual(['_filter']);
    expect(issue.details?.text).toContain('at character 19');
  });
});
