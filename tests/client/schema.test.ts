// Schema loading (SPEC §7 "Schema load uses GraphQL queries StructureDefinitionList and
// SearchParameterList (count 100)"; SPEC §8 'Unknown data type: {name}', 'Failed loading
// StructureDefinition from bundle', 'No snapshot defined for StructureDefinition').
import type { StructureDefinition } from '@medplum/fhirtypes';
import { SchemaStore, schemaQuery } from '../../src/client/schema-store';
import { jsonResponse } from './support/fake-fetch';
import { FHIR, signedInClient } from './support/fhir-client-setup';

const patientSd: StructureDefinition = {
  resourceType: 'StructureDefinition',
  name: 'Patient',
  type: 'Patient',
  kind: 'resource',
  url: 'http://hl7.org/fhir/StructureDefinition/Patient',
  status: 'active',
  abstract: false,
  snapshot: {
    element: [
      { id: 'Patient', path: 'Patient', definition: 'Information about a person receiving care' },
      { id: 'Patient.name', path: 'Patient.name', min: 0, max: '*', type: [{ code: 'HumanName' }] },
      { id: 'Patient.contact.name', path: 'Patient.contact.name', min: 0, max: '1' },
    ],
  },
};

describe('SchemaStore', () => {
  test('indexes elements by their path under the type, by name and by URL', () => {
    const store = new SchemaStore();
    store.indexStructureDefinitions([patientSd]);
    const schema = store.getDataType('Patient');
    expect(Object.keys(schema.elements)).toEqual(['name', 'contact.name']);
    expect(schema.description).toBe('Information about a person receiving care');
    expect(store.getDataType('http://hl7.org/fhir/StructureDefinition/Patient')).toBe(schema);
    expect(store.isLoaded('Patient')).toBe(true);
  });

  test("SPEC §8 'Unknown data type: {name}'", () => {
    expect(() => new SchemaStore().getDataType('Observation')).toThrow('Unknown data type: Observation');
    expect(new SchemaStore().tryGetDataType('Observation')).toBeUndefined();
  });

  test("SPEC §8 'Failed loading StructureDefinition from bundle': not a list, or an entry without a name", () => {
    const store = new SchemaStore();
    expect(() => store.indexStructureDefinitions(undefined)).toThrow(
      'Failed loading StructureDefinition from bundle',
    );
    expect(() => store.indexStructureDefinitions([{ ...patientSd, name: '' }])).toThrow(
      'Failed loading StructureDefinition from bundle',
    );
    expect(() => store.indexStructureDefinitions([undefined])).toThrow(
      'Failed loading StructureDefinition from bundle',
    );
  });

  test("SPEC §8 'No snapshot defined for StructureDefinition'", () => {
    const store = new SchemaStore();
    expect(() => store.indexStructureDefinitions([{ ...patientSd, snapshot: undefined }])).toThrow(
      "No snapshot defined for StructureDefinition 'Patient'",
    );
    expect(() => store.indexStructureDefinition({ ...patientSd, snapshot: { element: [] } })).toThrow(
      'No snapshot defined for StructureDefinition',
    );
  });

  test('search parameters by base type and code', () => {
    const store = new SchemaStore();
    store.indexSearchParameters([
      {
        resourceType: 'SearchParameter',
        code: 'name',
        base: ['Patient', 'Practitioner'],
        type: 'string',
        name: 'name',
        status: 'active',
        url: 'u1',
        description: '',
      },
    ]);
    expect(Object.keys(store.getSearchParameters('Practitioner'))).toEqual(['name']);
    expect(store.getSearchParameters('Observation')).toEqual({});
  });

  test('indexSchemaLists: a GraphQL answer (nulls, __typename) becomes FHIR JSON; the type of that name is answered', () => {
    const store = new SchemaStore();
    // As the typed operations answer: a field without a value is null; Apollo adds __typename.
    const answered = {
      __typename: 'StructureDefinition',
      resourceType: 'StructureDefinition',
      name: 'Patient',
      kind: 'resource',
      type: 'Patient',
      url: patientSd.url,
      description: null,
      snapshot: {
        element: [
          { path: 'Patient', definition: 'A person', min: null, type: null },
          {
            path: 'Patient.name',
            definition: null,
            min: 0,
            max: '*',
            type: [{ code: 'HumanName', profile: null }],
          },
        ],
      },
    };
    // A profile that shares the name's start is listed too; the type asked for is answered.
    const profile = { ...answered, name: 'PatientProfile', url: 'http://example.org/PatientProfile' };
    const parameters = [
      { base: ['Patient'], code: 'name', type: 'string', expression: null, target: null },
      null,
    ];
    const schema = store.indexSchemaLists('Patient', [profile, answered, null], parameters);
    expect(schema.name).toBe('Patient');
    expect(schema.description).toBe('A person');
    expect(schema.elements.name).toEqual({
      path: 'Patient.name',
      min: 0,
      max: '*',
      type: [{ code: 'HumanName' }],
    });
    expect(store.getDataType('PatientProfile').url).toBe('http://example.org/PatientProfile');
    expect(store.getSearchParameters('Patient').name).toEqual({
      base: ['Patient'],
      code: 'name',
      type: 'string',
    });
  });

  test('indexSchemaLists: no definition of that name is an unknown type; a list that is none fails', () => {
    const store = new SchemaStore();
    expect(() => store.indexSchemaLists('Nonsense', [], [])).toThrow('Unknown data type: Nonsense');
    expect(() => store.indexSchemaLists('Patient', null, [])).toThrow(
      'Failed loading StructureDefinition from bundle',
    );
    expect(() =>
      store.indexSchemaLists('Patient', [{ resourceType: 'Patient', name: 'Patient' }], []),
    ).toThrow('Failed loading StructureDefinition from bundle');
  });
});

describe('requestSchema and requestProfileSchema through the client', () => {
  test('one GraphQL request with StructureDefinitionList(name) and SearchParameterList(base, _count: 100); loaded once', async () => {
    const { client, fake } = signedInClient();
    fake.on('POST', '/$graphql', () =>
      jsonResponse({
        data: {
          StructureDefinitionList: [patientSd],
          SearchParameterList: [
            {
              resourceType: 'SearchParameter',
              base: ['Patient'],
              code: 'birthdate',
              type: 'date',
              expression: 'Patient.birthDate',
            },
          ],
        },
      }),
    );
    const [a, b] = await Promise.all([client.requestSchema('Patient'), client.requestSchema('Patient')]);
    expect(a).toBe(b);
    await client.requestSchema('Patient');
    const calls = fake.callsTo('POST', '/$graphql');
    expect(calls).toHaveLength(1);
    const { query } = JSON.parse(calls[0].body as string) as { query: string };
    expect(query).toBe(schemaQuery('Patient'));
    expect(query).toContain('StructureDefinitionList(name: "Patient")');
    expect(query).toContain('SearchParameterList(base: "Patient", _count: 100)');
    expect(client.getSchema().getSearchParameters('Patient').birthdate.type).toBe('date');
  });

  test('a schema response without StructureDefinitions fails, and a later call asks again', async () => {
    const { client, fake } = signedInClient();
    fake.on('POST', '/$graphql', () => jsonResponse({ data: { SearchParameterList: [] } }));
    await expect(client.requestSchema('Patient')).rejects.toThrow(
      'Failed loading StructureDefinition from bundle',
    );
    await expect(client.requestSchema('Patient')).rejects.toThrow(
      'Failed loading StructureDefinition from bundle',
    );
    expect(fake.callsTo('POST', '/$graphql')).toHaveLength(2);
  });

  test('requestProfileSchema with expandProfile POSTs StructureDefinition/$expand-profile?url; without it searches the latest by url', async () => {
    const profile = {
      ...patientSd,
      name: 'BloomPatient',
      url: 'https://bloom.example/fhir/StructureDefinition/bloom-patient',
    };
    const { client, fake } = signedInClient();
    fake.on('POST', '/StructureDefinition/$expand-profile', () =>
      jsonResponse({ resourceType: 'Bundle', type: 'collection', entry: [{ resource: profile }] }),
    );
    const schema = await client.requestProfileSchema(profile.url, { expandProfile: true });
    expect(schema.name).toBe('BloomPatient');
    expect(fake.callsTo('POST', '/StructureDefinition/$expand-profile')[0].url).toBe(
      `${FHIR}StructureDefinition/$expand-profile?url=https%3A%2F%2Fbloom.example%2Ffhir%2FStructureDefinition%2Fbloom-patient`,
    );

    const other = { ...profile, name: 'Other', url: 'https://bloom.example/other' };
    fake.on('GET', '/StructureDefinition', () =>
      jsonResponse({ resourceType: 'Bundle', type: 'searchset', entry: [{ resource: other }] }),
    );
    await expect(client.requestProfileSchema(other.url)).resolves.toMatchObject({ name: 'Other' });
    expect(fake.callsTo('GET', '/StructureDefinition')[0].url).toBe(
      `${FHIR}StructureDefinition?url=https%3A%2F%2Fbloom.example%2Fother&_sort=-_lastUpdated&_count=1`,
    );
    await expect(client.requestProfileSchema('https://nowhere.example/x')).rejects.toThrow(
      'Unknown data type: https://nowhere.example/x',
    );
  });
});
