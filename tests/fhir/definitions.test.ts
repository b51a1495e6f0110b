import {
  getPatientCompartmentParams,
  getResourceTypes,
  getSearchParameter,
  getSearchParameters,
  getTypeSchema,
  isResourceType,
  loadFhirIndexFile,
  setFhirIndex,
} from '../../src/fhir';

describe('FHIR index: resource types (R4 and Medplum platform types)', () => {
  test.each([
    'Patient',
    'Observation',
    'Bundle',
    'Project',
    'ProjectMembership',
    'User',
    'Login',
    'ClientApplication',
    'Bot',
    'UserConfiguration',
    'AccessPolicy',
  ])('%s is a resource type', (name) => {
    expect(getResourceTypes()).toContain(name);
    expect(isResourceType(name)).toBe(true);
  });

  test.each([
    'Resource',
    'DomainResource',
    'HumanName',
    'string',
    'Patient.contact',
    'Foo',
    'constructor',
    '',
  ])('%p is not a concrete resource type', (name) => {
    expect(isResourceType(name)).toBe(false);
    expect(getResourceTypes()).not.toContain(name);
  });

  test('resource types are sorted and many', () => {
    const types = getResourceTypes();
    expect(types.length).toBeGreaterThan(150);
    expect([...types].sort()).toEqual(types);
  });
});

describe('FHIR index: type schemas', () => {
  test('Patient elements carry cardinality and types', () => {
    const patient = getTypeSchema('Patient');
    expect(patient).toMatchObject({
      name: 'Patient',
      kind: 'resource',
      abstract: false,
      base: 'DomainResource',
    });
    expect(patient?.elements.get('birthDate')).toMatchObject({
      path: 'Patient.birthDate',
      min: 0,
      max: 1,
      isArray: false,
      types: [{ code: 'date' }],
    });
    expect(patient?.elements.get('name')).toMatchObject({
      max: Infinity,
      isArray: true,
      types: [{ code: 'HumanName' }],
    });
    expect(patient?.elements.get('id')?.types).toEqual([{ code: 'id' }]);
    expect(patient?.elements.get('generalPractitioner')?.types[0]).toEqual({
      code: 'Reference',
      targets: ['Organization', 'Practitioner', 'PractitionerRole'],
    });
  });

  test('choice elements expand into one property per allowed type', () => {
    const observation = getTypeSchema('Observation');
    const value = observation?.elements.get('value[x]');
    expect(value?.isChoice).toBe(true);
    expect(observation?.properties.get('valueQuantity')?.type.code).toBe('Quantity');
    expect(observation?.properties.get('valueString')?.element).toBe(value);
    expect(observation?.properties.get('valueCodeableConcept')?.type.code).toBe('CodeableConcept');
    expect(observation?.properties.has('valueAddress')).toBe(false);
    expect(observation?.properties.has('value[x]')).toBe(false);
  });

  test('backbone elements are nested types keyed by path; required elements have min 1', () => {
    const component = getTypeSchema(
      getTypeSchema('Observation')?.elements.get('component')?.types[0].code ?? '',
    );
    expect(component?.name).toBe('Observation.component');
    expect(component?.kind).toBe('backbone');
    expect(component?.elements.get('code')?.min).toBe(1);
    expect(getTypeSchema('Observation')?.elements.get('status')?.min).toBe(1);
  });

  test('contentReference elements resolve (Questionnaire.item.item → Questionnaire.item)', () => {
    const item = getTypeSchema('Questionnaire.item');
    expect(item?.elements.get('item')?.types).toEqual([{ code: 'Questionnaire.item' }]);
    expect(item?.elements.get('linkId')?.min).toBe(1);
  });

  test('SPEC §3 extended Meta: project, author, account, compartment', () => {
    const meta = getTypeSchema('Meta');
    expect(meta?.elements.get('project')?.types).toEqual([{ code: 'uri' }]);
    expect(meta?.elements.get('author')?.types[0].code).toBe('Reference');
    expect(meta?.elements.get('account')?.isArray).toBe(false);
    expect(meta?.elements.get('compartment')).toMatchObject({
      isArray: true,
      types: [{ code: 'Reference' }],
    });
  });

  test('unknown types have no schema', () => {
    expect(getTypeSchema('NoSuchType')).toBeUndefined();
    expect(getTypeSchema('toString')).toBeUndefined();
  });
});

describe('FHIR index: search parameters', () => {
  test('Patient has name (string) and birthdate (date)', () => {
    expect(getSearchParameter('Patient', 'name')).toEqual({
      code: 'name',
      type: 'string',
      expression: 'Patient.name',
    });
    expect(getSearchParameter('Patient', 'birthdate')).toEqual({
      code: 'birthdate',
      type: 'date',
      expression: 'Patient.birthDate',
    });
  });

  test('multi-type expressions are narrowed to the resource type', () => {
    expect(getSearchParameter('Patient', 'given')?.expression).toBe('Patient.name.given');
    expect(getSearchParameter('Practitioner', 'given')?.expression).toBe('Practitioner.name.given');
  });

  test('common parameters apply to every resource with its own type name', () => {
    expect(getSearchParameter('Observation', '_lastUpdated')).toEqual({
      code: '_lastUpdated',
      type: 'date',
      expression: 'Observation.meta.lastUpdated',
    });
    expect(getSearchParameter('Project', '_id')?.expression).toBe('Project.id');
  });

  test('reference parameters list their targets', () => {
    expect(getSearchParameter('Observation', 'subject')?.target).toEqual(
      expect.arrayContaining(['Patient', 'Group', 'Device', 'Location']),
    );
  });

  test('Medplum platform parameters are present', () => {
    expect(getSearchParameter('ProjectMembership', 'user')?.type).toBe('reference');
    expect(getSearchParameter('User', 'email')?.expression).toBe('User.email');
  });

  test('unknown types or codes have none', () => {
    expect(getSearchParameters('NoSuchType')).toEqual([]);
    expect(getSearchParameter('Patient', 'no-such-param')).toBeUndefined();
  });
});

describe('FHIR index: Patient compartment', () => {
  test('compartment params per resource type', () => {
    expect(getPatientCompartmentParams('Observation')).toEqual(['subject', 'performer']);
    expect(getPatientCompartmentParams('Communication')).toEqual(['subject', 'sender', 'recipient']);
    expect(getPatientCompartmentParams('Patient')).toEqual(['link']);
  });

  test('types outside the compartment have none', () => {
    expect(getPatientCompartmentParams('Organization')).toBeUndefined();
    expect(getPatientCompartmentParams('Project')).toBeUndefined();
  });
});

describe('FHIR index file', () => {
  test('loads from src/fhir/generated/fhir-index.json in well under a second', () => {
    const started = performance.now();
    const index = loadFhirIndexFile();
    const elapsed = performance.now() - started;
    expect(Object.keys(index.types).length).toBeGreaterThan(500);
    expect(index.version).toMatch(/^@medplum\/definitions /);
    expect(elapsed).toBeLessThan(1000);
    expect(isResourceType('Patient')).toBe(true);
  });

  test('required bindings: one code list per distinct value set, every bound element points at one', () => {
    const index = loadFhirIndexFile();
    expect(index.bindings.length).toBeGreaterThan(200);
    const lists = index.codeLists.map((codes) => JSON.stringify(codes));
    expect(new Set(lists).size).toBe(lists.length);
    const urls = index.bindings.map(([valueSet]) => valueSet.split('|')[0]);
    const listOfUrl = new Map<string, number>();
    index.bindings.forEach(([valueSet, list], i) => {
      expect(list).toBeLessThan(index.codeLists.length);
      expect(listOfUrl.get(urls[i]) ?? list).toBe(list); // '…/resource-types' and '…|4.0.1' share one
      listOfUrl.set(urls[i], list);
      expect(valueSet).toMatch(/^https?:\/\//);
    });
    let boundElements = 0;
    for (const type of Object.values(index.types)) {
      for (const element of Object.values(type.e)) {
        if (element.length === 5) {
          boundElements++;
          expect(element[2]).toBe('code');
          expect(element[4]).toBeLessThan(index.bindings.length);
        }
      }
    }
    expect(boundElements).toBeGreaterThan(300);
    expect(index.codeLists.some((codes) => codes.length > 1000)).toBe(false);
  });

  test('a missing file says how to build it and keeps the loaded index', () => {
    expect(() => loadFhirIndexFile('src/fhir/generated/no-such-file.json')).toThrow(
      'FHIR index src/fhir/generated/no-such-file.json is missing: run "npm run build:fhir"',
    );
    expect(isResourceType('Patient')).toBe(true);
  });

  test('setFhirIndex installs another index and clears the caches', () => {
    const real = loadFhirIndexFile();
    expect(getTypeSchema('Patient')?.elements.get('gender')?.binding?.codes.has('female')).toBe(true);
    // The fake binding takes Patient.gender's position, whose codes are now cached: they must not leak.
    const genderBinding = real.types.Patient.e.gender[4] ?? 0;
    try {
      setFhirIndex({
        version: 'test',
        types: {
          Thing: {
            k: 'resource',
            e: { label: [1, 1, 'string', 0], state: [0, 1, 'code', 0, genderBinding] },
          },
        },
        search: { Thing: [['label', 'string', 'Thing.label', '']] },
        patientCompartment: {},
        bindings: Array.from({ length: genderBinding + 1 }, () => [
          'http://example.org/ValueSet/thing-state|1',
          0,
        ]),
        codeLists: [['on', 'off']],
      });
      expect(getResourceTypes()).toEqual(['Thing']);
      expect(getTypeSchema('Patient')).toBeUndefined();
      expect(getTypeSchema('Thing')?.elements.get('label')?.min).toBe(1);
      const binding = getTypeSchema('Thing')?.elements.get('state')?.binding;
      expect(binding?.valueSet).toBe('http://example.org/ValueSet/thing-state|1');
      expect([...(binding?.codes ?? [])]).toEqual(['on', 'off']);
      expect(getTypeSchema('Thing')?.elements.get('label')?.binding).toBeUndefined();
      expect(getSearchParameters('Thing')).toEqual([
        { code: 'label', type: 'string', expression: 'Thing.label' },
      ]);
    } finally {
      setFhirIndex(real);
    }
    expect(getResourceTypes()).toContain('Patient');
  });
});
