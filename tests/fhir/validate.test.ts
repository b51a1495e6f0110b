import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import {
  assertValidResource,
  getStatus,
  getTypeSchema,
  OperationOutcomeError,
  validateResource,
} from '../../src/fhir';

/** Issues as 'code expression: text' lines, easy to compare. */
function problems(value: unknown): string[] {
  return validateResource(value).map(
    (issue: OperationOutcomeIssue) => `${issue.code} ${issue.expression?.join(',')}: ${issue.details?.text}`,
  );
}

const maria = {
  resourceType: 'Patient',
  id: 'maria',
  name: [{ given: ['Maria', 'Elena'], family: 'Garcia' }],
  gender: 'female',
  birthDate: '1992-04-17',
  telecom: [{ system: 'email', value: 'maria@bloom.example' }],
  generalPractitioner: [{ reference: 'Practitioner/dr-chen', display: 'Dr. Lily Chen' }],
};

const bloodPressure = {
  resourceType: 'Observation',
  status: 'preliminary',
  code: {
    coding: [{ system: 'http://loinc.org', code: '85354-9', display: 'Blood pressure' }],
    text: 'Blood pressure',
  },
  subject: { reference: 'Patient/maria' },
  effectiveDateTime: '2024-05-17T10:30:00Z',
  component: [
    {
      code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
      valueQuantity: { value: 118, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
    },
    {
      code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] },
      valueQuantity: { value: 76, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
    },
  ],
};

describe('valid resources', () => {
  test('a typical Patient', () => {
    expect(problems(maria)).toEqual([]);
  });

  test('an Observation with valueQuantity and one with components', () => {
    expect(
      problems({
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'Heart rate' },
        valueQuantity: { value: 72, unit: 'beats/minute', system: 'http://unitsofmeasure.org', code: '/min' },
      }),
    ).toEqual([]);
    expect(problems(bloodPressure)).toEqual([]);
  });

  test('SPEC §3 server-managed fields and the extended Meta are allowed', () => {
    expect(
      problems({
        ...maria,
        meta: {
          versionId: '3',
          lastUpdated: '2024-05-17T10:30:00.000Z',
          project: 'Project/123',
          author: { reference: 'Practitioner/dr-chen' },
          account: { reference: 'Organization/clinic' },
          compartment: [{ reference: 'Patient/maria' }, { reference: 'Project/123' }],
        },
      }),
    ).toEqual([]);
  });

  test('Medplum platform resources validate too', () => {
    expect(
      problems({ resourceType: 'Project', name: 'Bloom Clinic', owner: { reference: 'User/1' } }),
    ).toEqual([]);
    expect(
      problems({
        resourceType: 'ProjectMembership',
        project: { reference: 'Project/1' },
        user: { reference: 'User/1' },
        profile: { reference: 'Patient/maria' },
        admin: false,
      }),
    ).toEqual([]);
  });

  test('primitive extension siblings (_field) are allowed and count as present', () => {
    expect(
      problems({
        resourceType: 'Patient',
        _birthDate: {
          extension: [
            { url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' },
          ],
        },
        name: [
          {
            given: [null, 'Elena'],
            _given: [{ extension: [{ url: 'http://example.org/x', valueString: 'M' }] }, null],
          },
        ],
      }),
    ).toEqual([]);
    // Observation.status is required: an extension-only value satisfies it.
    expect(
      problems({
        resourceType: 'Observation',
        code: { text: 'x' },
        _status: {
          extension: [
            { url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' },
          ],
        },
      }),
    ).toEqual([]);
  });

  test('contentReference elements (Questionnaire.item.item) validate recursively', () => {
    expect(
      problems({
        resourceType: 'Questionnaire',
        status: 'active',
        item: [{ linkId: '1', type: 'group', item: [{ linkId: '1.1', type: 'string', text: 'Name' }] }],
      }),
    ).toEqual([]);
  });
});

describe('SPEC §5 primitives inside resources', () => {
  test('Patient with a bad birthDate', () => {
    expect(problems({ ...maria, birthDate: '17/04/1992' })).toEqual([
      'invalid Patient.birthDate: Invalid date format',
    ]);
  });

  test('a bad id, code and boolean', () => {
    expect(problems({ resourceType: 'Patient', id: 'has space', gender: ' female', active: 'yes' })).toEqual([
      'invalid Patient.id: Invalid id format',
      'invalid Patient.gender: Invalid code format',
      'invalid Patient.active: Invalid JSON type for boolean: expected boolean, got string',
    ]);
  });

  test('array indices appear in the expression (Patient.name[0].given[1])', () => {
    expect(problems({ resourceType: 'Patient', name: [{ given: ['Maria', ''] }] })).toEqual([
      'invalid Patient.name[0].given[1]: Invalid empty string',
    ]);
  });

  test('a bad primitive extension sibling value', () => {
    expect(problems({ resourceType: 'Patient', _birthDate: { extension: [{ valueCode: 'x' }] } })).toEqual([
      'required Patient.birthDate.extension[0].url: Missing required property',
    ]);
  });
});

describe('unknown elements and wrong JSON types', () => {
  test('an unknown element', () => {
    expect(problems({ ...maria, foo: 'bar' })).toEqual([
      'structure Patient.foo: Invalid additional property "foo"',
    ]);
  });

  test('property names that are Object.prototype members are unknown, not crashes', () => {
    expect(problems({ resourceType: 'Patient', constructor: 1, toString: 'x' })).toEqual([
      'structure Patient.constructor: Invalid additional property "constructor"',
      'structure Patient.toString: Invalid additional property "toString"',
    ]);
  });

  test('an extension sibling for a non-primitive or unknown element', () => {
    expect(problems({ resourceType: 'Patient', _name: {}, _foo: {} })).toEqual([
      'structure Patient._name: Invalid additional property "_name"',
      'structure Patient._foo: Invalid additional property "_foo"',
    ]);
  });

  test('a string where an object is expected and an object where a string is expected', () => {
    expect(
      problems({ resourceType: 'Patient', maritalStatus: 'married', birthDate: { value: '1992' } }),
    ).toEqual([
      'structure Patient.maritalStatus: Expected object for property, got string',
      'invalid Patient.birthDate: Invalid JSON type for date: expected string, got object',
    ]);
  });

  test('null values are not allowed', () => {
    expect(problems({ resourceType: 'Patient', birthDate: null, name: [null] })).toEqual([
      'structure Patient.birthDate: Invalid null value',
      'structure Patient.name[0]: Invalid null value',
    ]);
  });
});

describe('choice types value[x]', () => {
  test('only the allowed type suffixes', () => {
    expect(problems({ resourceType: 'Patient', deceasedBoolean: false, multipleBirthInteger: 2 })).toEqual(
      [],
    );
    expect(problems({ resourceType: 'Patient', deceasedString: 'no' })).toEqual([
      'structure Patient.deceasedString: Invalid additional property "deceasedString"',
    ]);
    expect(problems({ resourceType: 'Patient', 'deceased[x]': true })).toEqual([
      'structure Patient.deceased[x]: Invalid additional property "deceased[x]"',
    ]);
  });

  test('the suffix decides the type that is checked', () => {
    expect(problems({ resourceType: 'Patient', deceasedDateTime: 'yesterday' })).toEqual([
      'invalid Patient.deceasedDateTime: Invalid dateTime format',
    ]);
  });

  test('only one type of a choice', () => {
    expect(problems({ ...bloodPressure, valueQuantity: { value: 1 }, valueString: 'one' })).toEqual([
      'structure Observation.valueString: Only one of valueQuantity, valueString may be present (value[x])',
    ]);
  });
});

describe('cardinality and required elements', () => {
  test('a single value where an array is expected', () => {
    expect(problems({ resourceType: 'Patient', name: { family: 'Garcia' } })).toEqual([
      'structure Patient.name: Expected array for property',
    ]);
  });

  test('an array where a single value is expected', () => {
    expect(problems({ resourceType: 'Patient', birthDate: ['1992-04-17'] })).toEqual([
      'structure Patient.birthDate: Expected single value for property',
    ]);
  });

  test('empty arrays and objects are not allowed', () => {
    expect(problems({ resourceType: 'Patient', name: [], maritalStatus: {} })).toEqual([
      'structure Patient.name: Invalid empty array',
      'structure Patient.maritalStatus: Invalid empty object',
    ]);
  });

  test('missing required elements, also in nested backbone elements', () => {
    expect(problems({ resourceType: 'Observation', component: [{ valueQuantity: { value: 1 } }] })).toEqual([
      'required Observation.component[0].code: Missing required property',
      'required Observation.status: Missing required property',
      'required Observation.code: Missing required property',
    ]);
  });

  test('required elements of datatypes (Extension.url) and backbones (Bundle.entry.request.method)', () => {
    expect(
      problems({ resourceType: 'Bundle', type: 'transaction', entry: [{ request: { url: 'Patient' } }] }),
    ).toEqual(['required Bundle.entry[0].request.method: Missing required property']);
  });

  test('errors deep in nested backbone elements', () => {
    const bad = structuredClone(bloodPressure);
    (bad.component[1].valueQuantity as Record<string, unknown>).value = '76';
    (bad.component[1] as Record<string, unknown>).extra = true;
    expect(problems(bad)).toEqual([
      'invalid Observation.component[1].valueQuantity.value: Invalid JSON type for decimal: expected number, got string',
      'structure Observation.component[1].extra: Invalid additional property "extra"',
    ]);
  });
});

describe('resourceType', () => {
  test.each<[unknown, string]>([
    [{ name: 'no type' }, 'required resourceType: Missing resourceType'],
    [{ resourceType: 'Spaceship' }, 'invalid resourceType: Unknown resource type "Spaceship"'],
    [{ resourceType: 42 }, 'invalid resourceType: Unknown resource type "42"'],
    [{ resourceType: 'HumanName' }, 'invalid resourceType: Unknown resource type "HumanName"'],
    [
      { resourceType: 'DomainResource' },
      'invalid resourceType: Abstract resource type "DomainResource" is not allowed',
    ],
  ])('%p', (value, expected) => {
    expect(problems(value)).toEqual([expected]);
  });

  test.each([null, 'Patient', [maria], 7])('not an object: %p', (value) => {
    expect(problems(value)).toEqual(['structure resourceType: Expected a resource object']);
  });
});

describe('contained resources and Bundle entries are validated as resources', () => {
  test('contained resources by their own resourceType', () => {
    expect(
      problems({
        ...maria,
        contained: [
          { resourceType: 'Practitioner', id: 'p1', name: [{ family: 'Chen' }] },
          { resourceType: 'Organization', id: 'o1', birthDate: '2000-01-01' },
          { resourceType: 'Nope' },
        ],
      }),
    ).toEqual([
      'structure Patient.contained[1].birthDate: Invalid additional property "birthDate"',
      'invalid Patient.contained[2].resourceType: Unknown resource type "Nope"',
    ]);
  });

  test('Bundle.entry.resource', () => {
    expect(
      problems({
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            fullUrl: 'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
            resource: maria,
            request: { method: 'POST', url: 'Patient' },
          },
          { resource: { ...bloodPressure, status: 3 }, request: { method: 'POST', url: 'Observation' } },
          {
            resource: { resourceType: 'Patient', birthDate: '1992-13-01' },
            request: { method: 'PUT', url: 'Patient/x' },
          },
        ],
      }),
    ).toEqual([
      'invalid Bundle.entry[1].resource.status: Invalid JSON type for code: expected string, got number',
      'invalid Bundle.entry[2].resource.birthDate: Invalid date format',
    ]);
  });
});

describe('hostile input', () => {
  test('absurd nesting is reported, not a stack overflow', () => {
    let item: Record<string, unknown> = { linkId: 'leaf', type: 'string' };
    for (let i = 0; i < 5000; i++) item = { linkId: String(i), type: 'group', item: [item] };
    const issues = validateResource({ resourceType: 'Questionnaire', status: 'active', item: [item] });
    expect(issues.map((issue) => issue.details?.text)).toEqual(['Too deeply nested']);
  });
});

describe('assertValidResource', () => {
  test('passes a valid resource', () => {
    expect(() => assertValidResource(maria)).not.toThrow();
  });

  test('throws a 400 OperationOutcomeError with every issue, message joined with "; "', () => {
    let caught: unknown;
    try {
      assertValidResource({ resourceType: 'Patient', birthDate: 'x', foo: 1 });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(OperationOutcomeError);
    const error = caught as OperationOutcomeError;
    expect(getStatus(error.outcome)).toBe(400);
    expect(error.outcome.issue).toHaveLength(2);
    expect(error.message).toBe(
      'Invalid date format (Patient.birthDate); Invalid additional property "foo" (Patient.foo)',
    );
  });
});

describe('required terminology bindings of code elements', () => {
  const gender = 'http://hl7.org/fhir/ValueSet/administrative-gender|4.0.1';

  test('Patient.gender: a code of administrative-gender passes, any other is code-invalid', () => {
    for (const code of ['male', 'female', 'other', 'unknown']) {
      expect(problems({ resourceType: 'Patient', gender: code })).toEqual([]);
    }
    expect(validateResource({ resourceType: 'Patient', gender: 'nope' })).toEqual([
      {
        severity: 'error',
        code: 'code-invalid',
        details: { text: `Value "nope" did not satisfy terminology binding ${gender}` },
        expression: ['Patient.gender'],
      },
    ]);
    // codes are case-sensitive
    expect(problems({ resourceType: 'Patient', gender: 'Female' })).toEqual([
      `code-invalid Patient.gender: Value "Female" did not satisfy terminology binding ${gender}`,
    ]);
  });

  test('Observation.status and Bundle.type', () => {
    expect(problems({ ...bloodPressure, status: 'amended' })).toEqual([]);
    expect(problems({ ...bloodPressure, status: 'bogus' })).toEqual([
      'code-invalid Observation.status: Value "bogus" did not satisfy terminology binding ' +
        'http://hl7.org/fhir/ValueSet/observation-status|4.0.1',
    ]);
    expect(problems({ resourceType: 'Bundle', type: 'collection' })).toEqual([]);
    expect(problems({ resourceType: 'Bundle', type: 'batch-response' })).toEqual([]);
    expect(problems({ resourceType: 'Bundle', type: 'pile' })).toEqual([
      'code-invalid Bundle.type: Value "pile" did not satisfy terminology binding ' +
        'http://hl7.org/fhir/ValueSet/bundle-type|4.0.1',
    ]);
  });

  test('backbone elements: Patient.contact.gender and Bundle.entry.request.method', () => {
    expect(problems({ ...maria, contact: [{ gender: 'male', name: { text: 'Luis' } }] })).toEqual([]);
    expect(problems({ ...maria, contact: [{ name: { text: 'Luis' } }, { gender: 'man' }] })).toEqual([
      `code-invalid Patient.contact[1].gender: Value "man" did not satisfy terminology binding ${gender}`,
    ]);
    const entry = (method: string): unknown => ({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [{ resource: maria, request: { method, url: 'Patient' } }],
    });
    expect(problems(entry('POST'))).toEqual([]);
    expect(problems(entry('post'))).toEqual([
      'code-invalid Bundle.entry[0].request.method: Value "post" did not satisfy terminology binding ' +
        'http://hl7.org/fhir/ValueSet/http-verb|4.0.1',
    ]);
  });

  test('datatype elements: ContactPoint.system, HumanName.use, Address.use, Quantity.comparator', () => {
    expect(
      problems({
        ...maria,
        telecom: [{ system: 'phone', use: 'mobile', value: '+1 555 0100' }],
        name: [{ use: 'official', family: 'Garcia' }],
        address: [{ use: 'home', type: 'both', city: 'Springfield' }],
      }),
    ).toEqual([]);
    expect(
      problems({
        ...maria,
        telecom: [
          { system: 'email', value: 'maria@bloom.example' },
          { system: 'pager-ish', value: '1' },
        ],
        name: [{ use: 'nickname-ish', family: 'Garcia' }],
        address: [{ use: 'holiday', city: 'Springfield' }],
      }),
    ).toEqual([
      // maria's keys come first, in her order (name before telecom)
      'code-invalid Patient.name[0].use: Value "nickname-ish" did not satisfy terminology binding ' +
        'http://hl7.org/fhir/ValueSet/name-use|4.0.1',
      'code-invalid Patient.telecom[1].system: Value "pager-ish" did not satisfy terminology binding ' +
        'http://hl7.org/fhir/ValueSet/contact-point-system|4.0.1',
      'code-invalid Patient.address[0].use: Value "holiday" did not satisfy terminology binding ' +
        'http://hl7.org/fhir/ValueSet/address-use|4.0.1',
    ]);
    const heartRate = (comparator: string): unknown => ({
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Heart rate' },
      valueQuantity: { value: 200, comparator, unit: '/min' },
    });
    expect(problems(heartRate('>='))).toEqual([]);
    expect(problems(heartRate('=>'))).toEqual([
      'code-invalid Observation.valueQuantity.comparator: Value "=>" did not satisfy terminology binding ' +
        'http://hl7.org/fhir/ValueSet/quantity-comparator|4.0.1',
    ]);
  });

  test('repeating bound codes are checked one by one (SearchParameter.base, Medplum types included)', () => {
    const searchParameter = (base: string[]): unknown => ({
      resourceType: 'SearchParameter',
      url: 'https://bloom.example/SearchParameter/x',
      name: 'x',
      status: 'active',
      description: 'x',
      code: 'x',
      base,
      type: 'token',
      expression: 'Patient.gender',
    });
    // Project and Bot are Medplum platform types: accepted wherever a resource type code is
    expect(problems(searchParameter(['Patient', 'Project', 'Bot']))).toEqual([]);
    expect(problems(searchParameter(['Patient', 'Patiant']))).toEqual([
      'code-invalid SearchParameter.base[1]: Value "Patiant" did not satisfy terminology binding ' +
        'http://hl7.org/fhir/ValueSet/resource-types|4.0.1',
    ]);
  });

  test('a malformed code is reported once, as a bad primitive, not also as a binding failure', () => {
    expect(problems({ resourceType: 'Patient', gender: ' male' })).toHaveLength(1);
    expect(problems({ resourceType: 'Patient', gender: 7 })).toHaveLength(1);
    expect(problems({ resourceType: 'Patient', gender: 7 })[0]).toMatch(/^invalid Patient\.gender: /);
  });

  test('codes that are unbound or bound below required strength are left free', () => {
    // Patient.language: preferred binding; Attachment.contentType: required but to mime types,
    // which are not enumerable and left unchecked; Coding.code: a code with no binding
    expect(
      problems({
        ...maria,
        language: 'tlh',
        photo: [{ contentType: 'image/x-anything' }],
        maritalStatus: { coding: [{ system: 'http://example.org/made-up', code: 'whatever' }] },
      }),
    ).toEqual([]);
    expect(getTypeSchema('Patient')?.elements.get('language')?.binding).toBeUndefined();
    expect(getTypeSchema('Attachment')?.elements.get('contentType')?.binding).toBeUndefined();
    expect(getTypeSchema('Coding')?.elements.get('code')?.binding).toBeUndefined();
  });

  test('bound elements carry their value set (shared between elements) and codes', () => {
    const patientGender = getTypeSchema('Patient')?.elements.get('gender')?.binding;
    const contactGender = getTypeSchema('Patient.contact')?.elements.get('gender')?.binding;
    expect(patientGender?.valueSet).toBe(gender);
    expect([...(patientGender?.codes ?? [])].sort()).toEqual(['female', 'male', 'other', 'unknown']);
    expect(contactGender).toBe(patientGender);
    expect(getTypeSchema('Immunization')?.elements.get('status')?.binding?.codes.has('completed')).toBe(true);
    expect(getTypeSchema('Appointment')?.elements.get('status')?.binding?.codes.has('booked')).toBe(true);
    expect(getTypeSchema('Slot')?.elements.get('status')?.binding?.codes.has('busy-tentative')).toBe(true);
    expect(getTypeSchema('Identifier')?.elements.get('use')?.binding?.codes.has('secondary')).toBe(true);
  });

  test('a binding failure is a 400 through assertValidResource', () => {
    let caught: unknown;
    try {
      assertValidResource({
        resourceType: 'Communication',
        status: 'sent',
        subject: { reference: 'Patient/maria' },
      });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(OperationOutcomeError);
    expect(getStatus((caught as OperationOutcomeError).outcome)).toBe(400);
    expect((caught as OperationOutcomeError).message).toBe(
      'Value "sent" did not satisfy terminology binding http://hl7.org/fhir/ValueSet/event-status|4.0.1 ' +
        '(Communication.status)',
    );
  });
});
