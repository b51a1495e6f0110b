// FHIR search for date, number, quantity, uri and composite
// parameters and the common parameters, on each engine: every prefix (eq ne gt lt ge le sa eb ap)
// with matching and non-matching resources; date precision as ranges.
import type { ChargeItem, Communication, Observation, Patient, Slot, ValueSet } from '@medplum/fhirtypes';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { databases } from '../support/test-databases';
import { idSet, sorted, statusOf } from './search-support';

const UCUM = 'http://unitsofmeasure.org';

describe.each(databases())('search: date, number, quantity, uri, composite on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;
  let early: Observation; // 2023-06-15T10:30:00Z, 72 /min
  let late: Observation; // 2024-03-05 (a day), 120 mm[Hg]
  let period: Observation; // Period 2024-01-01 → 2024-01-31, 100.5 kg
  let openPeriod: Observation; // Period from 2025-01-01, no end, no value
  let born1990: Patient;
  let born2001: Patient;

  const obs = (extra: Partial<Observation>): Observation => ({
    resourceType: 'Observation',
    status: 'final',
    code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }] },
    ...extra,
  });

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext('search-ordered'));
    early = await repo.createResource(
      obs({
        effectiveDateTime: '2023-06-15T10:30:00Z',
        valueQuantity: { value: 72, unit: 'beats/minute', system: UCUM, code: '/min' },
      }),
    );
    late = await repo.createResource(
      obs({
        code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
        effectiveDateTime: '2024-03-05',
        valueQuantity: { value: 120, unit: 'mmHg', system: UCUM, code: 'mm[Hg]' },
      }),
    );
    period = await repo.createResource(
      obs({
        code: { coding: [{ system: 'http://loinc.org', code: '29463-7' }] },
        effectivePeriod: { start: '2024-01-01', end: '2024-01-31' },
        valueQuantity: { value: 100.5, unit: 'kg', system: UCUM, code: 'kg' },
      }),
    );
    openPeriod = await repo.createResource(obs({ effectivePeriod: { start: '2025-01-01' } }));
    born1990 = await repo.createResource<Patient>({ resourceType: 'Patient', birthDate: '1990-02-14' });
    born2001 = await repo.createResource<Patient>({ resourceType: 'Patient', birthDate: '2001' });
  });

  afterAll(async () => {
    await db.close();
  });

  test('date eq: the query precision is a range that must contain the value', async () => {
    expect(await idSet(repo, 'Observation?date=2023')).toEqual([early.id]);
    expect(await idSet(repo, 'Observation?date=2023-06')).toEqual([early.id]);
    expect(await idSet(repo, 'Observation?date=2023-06-15')).toEqual([early.id]);
    expect(await idSet(repo, 'Observation?date=2023-06-15T10:30')).toEqual([early.id]);
    expect(await idSet(repo, 'Observation?date=2023-06-15T10:30:00Z')).toEqual([early.id]);
    expect(await idSet(repo, 'Observation?date=2023-06-15T12:30:00%2B02:00')).toEqual([early.id]);
    expect(await idSet(repo, 'Observation?date=2023-06-16')).toEqual([]);
    expect(await idSet(repo, 'Observation?date=2024')).toEqual(sorted([late.id, period.id]));
    expect(await idSet(repo, 'Observation?date=2024-01')).toEqual([period.id]);
    // A day is wider than the query minute: not contained.
    expect(await idSet(repo, 'Observation?date=2024-03-05T10:00')).toEqual([]);
  });

  test('date gt, lt, ge, le against ranges', async () => {
    expect(await idSet(repo, 'Observation?date=gt2024-01-15')).toEqual(
      sorted([late.id, period.id, openPeriod.id]),
    );
    expect(await idSet(repo, 'Observation?date=gt2024-03-05')).toEqual([openPeriod.id]);
    expect(await idSet(repo, 'Observation?date=lt2024-01-15')).toEqual(sorted([early.id, period.id]));
    expect(await idSet(repo, 'Observation?date=lt2023-06-15')).toEqual([]);
    expect(await idSet(repo, 'Observation?date=ge2024-03-05')).toEqual(sorted([late.id, openPeriod.id]));
    expect(await idSet(repo, 'Observation?date=le2023-06-15')).toEqual([early.id]);
  });

  test('date sa, eb, ne and ap', async () => {
    expect(await idSet(repo, 'Observation?date=sa2023-12-31')).toEqual(
      sorted([late.id, period.id, openPeriod.id]),
    );
    expect(await idSet(repo, 'Observation?date=sa2024-01-15')).toEqual(sorted([late.id, openPeriod.id]));
    expect(await idSet(repo, 'Observation?date=eb2024-01-15')).toEqual([early.id]);
    expect(await idSet(repo, 'Observation?date=eb2023-06-15')).toEqual([]);
    expect(await idSet(repo, 'Observation?date=ne2023')).toEqual(sorted([late.id, period.id, openPeriod.id]));
    expect(await idSet(repo, 'Observation?date=ap2024-03-05')).toContain(late.id);
    expect(await idSet(repo, 'Observation?date=ap2024-03-05')).not.toContain(early.id);
  });

  test('date: a range by two parameters (AND) and OR with mixed prefixes', async () => {
    expect(await idSet(repo, 'Observation?date=ge2024-01-01&date=lt2024-02-01')).toEqual([period.id]);
    expect(await idSet(repo, 'Observation?date=lt2023-07-01,gt2024-12-31')).toEqual(
      sorted([early.id, openPeriod.id]),
    );
    expect(await idSet(repo, 'Patient?birthdate=1990')).toEqual([born1990.id]);
    expect(await idSet(repo, 'Patient?birthdate=ge2000-06-01')).toEqual([born2001.id]);
    expect(await idSet(repo, 'Patient?birthdate=2001-05-05')).toEqual([]);
    expect(await idSet(repo, 'Observation?date:missing=true')).toEqual([]);
    expect(await idSet(repo, 'Patient?birthdate:missing=false')).toEqual(sorted([born1990.id, born2001.id]));
  });

  test('date: malformed values are 400 naming the parameter', async () => {
    const result = await statusOf(idSet(repo, 'Observation?date=gt2024-13-45'));
    expect(result.status).toBe(400);
    expect(result.message).toContain('date');
    expect((await statusOf(idSet(repo, 'Observation?date:exact=2024'))).status).toBe(400);
  });

  test('date: both bounds of a single-valued date (Slot.start) tested on one value', async () => {
    const slot = (start: string): Slot => ({
      resourceType: 'Slot',
      status: 'free',
      schedule: { reference: 'Schedule/ranges' },
      start,
      end: start,
    });
    const inside = await repo.createResource(slot('2025-03-10T09:00:00Z'));
    const before = await repo.createResource(slot('2025-03-01T09:00:00Z'));
    const after = await repo.createResource(slot('2025-03-20T09:00:00Z'));
    const range = 'Slot?schedule=Schedule/ranges&start=gt2025-03-05&start=lt2025-03-15';
    expect(await idSet(repo, range)).toEqual([inside.id]);
    expect(await idSet(repo, `${range}&start=ne2025-03-10`)).toEqual([]);
    expect(await idSet(repo, 'Slot?start=ge2025-03-01&start=le2025-03-01')).toEqual([before.id]);
    expect(await idSet(repo, 'Slot?start=gt2025-03-15&start=lt2025-03-05')).toEqual([]);
    expect(await idSet(repo, 'Slot?start=sa2025-03-15,eb2025-03-05&start=lt2025-03-31')).toEqual(
      sorted([before.id, after.id]),
    );
  });

  test('_lastUpdated with prefixes', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(await idSet(repo, `Observation?_lastUpdated=gt${since}`)).toHaveLength(4);
    expect(await idSet(repo, `Observation?_lastUpdated=gt${future}`)).toEqual([]);
    expect(await idSet(repo, `Observation?_lastUpdated=lt${future}&_lastUpdated=ge${since}`)).toHaveLength(4);
    expect(await idSet(repo, `Observation?_lastUpdated=${early.meta!.lastUpdated}`)).toEqual([early.id]);
    expect(await idSet(repo, `Observation?_lastUpdated=ne${early.meta!.lastUpdated}`)).not.toContain(
      early.id,
    );
  });

  test('quantity: prefixes on the value, with and without system and unit', async () => {
    expect(await idSet(repo, 'Observation?value-quantity=gt100')).toEqual(sorted([late.id, period.id]));
    expect(await idSet(repo, 'Observation?value-quantity=ge120')).toEqual([late.id]);
    expect(await idSet(repo, 'Observation?value-quantity=lt100')).toEqual([early.id]);
    expect(await idSet(repo, 'Observation?value-quantity=le72')).toEqual([early.id]);
    expect(await idSet(repo, 'Observation?value-quantity=72')).toEqual([early.id]);
    expect(await idSet(repo, 'Observation?value-quantity=100')).toEqual([]); // 100.5 is outside 100 ± 0.5
    expect(await idSet(repo, 'Observation?value-quantity=100.5')).toEqual([period.id]);
    // One significant digit: 1e2 is 50 … 150.
    expect(await idSet(repo, 'Observation?value-quantity=1e2')).toEqual(
      sorted([early.id, late.id, period.id]),
    );
    expect(await idSet(repo, 'Observation?value-quantity=1.00e2')).toEqual([]);
    expect(await idSet(repo, 'Observation?value-quantity=ne72')).toEqual(
      sorted([late.id, period.id, openPeriod.id]),
    );
    expect(await idSet(repo, 'Observation?value-quantity=ap110')).toEqual(sorted([late.id, period.id]));
    expect(await idSet(repo, 'Observation?value-quantity=sa100')).toEqual(sorted([late.id, period.id]));
    expect(await idSet(repo, 'Observation?value-quantity=eb100')).toEqual([early.id]);
    expect(await idSet(repo, `Observation?value-quantity=120|${UCUM}|mm[Hg]`)).toEqual([late.id]);
    expect(await idSet(repo, 'Observation?value-quantity=120||mmHg')).toEqual([late.id]);
    expect(await idSet(repo, `Observation?value-quantity=120|${UCUM}|kg`)).toEqual([]);
    expect(await idSet(repo, 'Observation?value-quantity=gt50|http://other.example|')).toEqual([]);
    expect(await idSet(repo, 'Observation?value-quantity:missing=true')).toEqual([openPeriod.id]);
    expect((await statusOf(idSet(repo, 'Observation?value-quantity=gtabc'))).status).toBe(400);
  });

  test('number: a computed expression (Communication priority-order) and a decimal', async () => {
    const stat = await repo.createResource<Communication>({
      resourceType: 'Communication',
      status: 'completed',
      priority: 'stat',
    });
    const routine = await repo.createResource<Communication>({
      resourceType: 'Communication',
      status: 'completed',
      priority: 'routine',
    });
    expect(await idSet(repo, 'Communication?priority-order=50')).toEqual([stat.id]);
    expect(await idSet(repo, 'Communication?priority-order=gt20')).toEqual([stat.id]);
    expect(await idSet(repo, 'Communication?priority-order=le20')).toEqual([routine.id]);
    expect(await idSet(repo, 'Communication?priority-order=ne50')).toEqual([routine.id]);
    const charge = (factorOverride: number): ChargeItem => ({
      resourceType: 'ChargeItem',
      status: 'billable',
      code: { text: 'visit' },
      subject: { reference: `Patient/${born1990.id}` },
      factorOverride,
    });
    const low = await repo.createResource(charge(0.8));
    const high = await repo.createResource(charge(1.25));
    expect(await idSet(repo, 'ChargeItem?factor-override=0.8')).toEqual([low.id]);
    // Precision is the significant digits: 1 is 0.5 … 1.5, 1.0 is 0.95 … 1.05.
    expect(await idSet(repo, 'ChargeItem?factor-override=1')).toEqual(sorted([low.id, high.id]));
    expect(await idSet(repo, 'ChargeItem?factor-override=1.0')).toEqual([]);
    expect(await idSet(repo, 'ChargeItem?factor-override=ge1')).toEqual([high.id]);
    expect(await idSet(repo, 'ChargeItem?factor-override=lt1,gt1.2')).toEqual(sorted([low.id, high.id]));
  });

  test('uri: exact, :below and :above', async () => {
    const vs = await repo.createResource<ValueSet>({
      resourceType: 'ValueSet',
      status: 'active',
      url: 'http://example.org/fhir/ValueSet/colors',
    });
    const other = await repo.createResource<ValueSet>({
      resourceType: 'ValueSet',
      status: 'active',
      url: 'http://example.org/other',
    });
    expect(await idSet(repo, 'ValueSet?url=http://example.org/fhir/ValueSet/colors')).toEqual([vs.id]);
    expect(await idSet(repo, 'ValueSet?url=http://example.org/fhir')).toEqual([]);
    expect(await idSet(repo, 'ValueSet?url:below=http://example.org/fhir')).toEqual([vs.id]);
    expect(await idSet(repo, 'ValueSet?url:below=http://example.org')).toEqual(sorted([vs.id, other.id]));
    expect(await idSet(repo, 'ValueSet?url:above=http://example.org/fhir/ValueSet/colors/extra')).toEqual([
      vs.id,
    ]);
    expect(await idSet(repo, 'ValueSet?url:above=http://example.org/fhir')).toEqual([]);
    expect((await statusOf(idSet(repo, 'ValueSet?url:contains=example'))).status).toBe(400);
  });

  test('composite: code-value-quantity and component-code-value-quantity', async () => {
    const bp = await repo.createResource(
      obs({
        code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
        component: [
          {
            code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
            valueQuantity: { value: 135, system: UCUM, code: 'mm[Hg]' },
          },
          {
            code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] },
            valueQuantity: { value: 85, system: UCUM, code: 'mm[Hg]' },
          },
        ],
      }),
    );
    expect(await idSet(repo, 'Observation?code-value-quantity=http://loinc.org|8480-6$gt100')).toEqual([
      late.id,
    ]);
    expect(await idSet(repo, 'Observation?code-value-quantity=8480-6$lt100')).toEqual([]);
    expect(await idSet(repo, 'Observation?component-code-value-quantity=8480-6$gt130')).toEqual([bp.id]);
    expect(await idSet(repo, 'Observation?component-code-value-quantity=8462-4$gt130')).toEqual([]);
    expect(await idSet(repo, 'Observation?combo-code-value-quantity=8480-6$gt100')).toEqual(
      sorted([late.id, bp.id]),
    );
    expect((await statusOf(idSet(repo, 'Observation?code-value-quantity=8480-6'))).status).toBe(400);
  });

  test('common parameters: _id, _tag, _profile, _security, _compartment', async () => {
    const tagged = await repo.createResource<Patient>({
      resourceType: 'Patient',
      meta: {
        tag: [{ system: 'http://example.org/tags', code: 'vip' }],
        security: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R' }],
        profile: ['http://example.org/StructureDefinition/bloom-patient'],
      },
    });
    const withSubject = await repo.createResource(obs({ subject: { reference: `Patient/${tagged.id}` } }));
    expect(await idSet(repo, `Patient?_id=${tagged.id}`)).toEqual([tagged.id]);
    expect(await idSet(repo, `Patient?_id=${tagged.id},${born1990.id}`)).toEqual(
      sorted([tagged.id, born1990.id]),
    );
    expect(await idSet(repo, 'Patient?_id=nope')).toEqual([]);
    expect(await idSet(repo, 'Patient?_tag=vip')).toEqual([tagged.id]);
    expect(await idSet(repo, 'Patient?_tag=http://example.org/tags|vip')).toEqual([tagged.id]);
    expect(await idSet(repo, 'Patient?_tag=other')).toEqual([]);
    expect(await idSet(repo, 'Patient?_security=R')).toEqual([tagged.id]);
    expect(
      await idSet(repo, 'Patient?_profile=http://example.org/StructureDefinition/bloom-patient'),
    ).toEqual([tagged.id]);
    expect(await idSet(repo, 'Patient?_profile:below=http://example.org/StructureDefinition')).toEqual([
      tagged.id,
    ]);
    expect(await idSet(repo, `Observation?_compartment=Patient/${tagged.id}`)).toEqual([withSubject.id]);
    expect(await idSet(repo, `Observation?_compartment=Patient/${born2001.id}`)).toEqual([]);
  });
});
