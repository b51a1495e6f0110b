import { isValidId, validatePrimitive } from '../../src/fhir';

// Each row: a type, values it accepts, values it rejects (SPEC §5 "Healthcare primitives").
const cases: [type: string, good: unknown[], bad: unknown[]][] = [
  [
    'id',
    ['a', 'abc-123.DEF', 'A'.repeat(64), '0', '123e4567-e89b-12d3-a456-426614174000'],
    ['', 'A'.repeat(65), 'has space', 'under_score', 'slash/id', 'é', 'tab\t', 123, null],
  ],
  [
    'date',
    ['2024', '2024-02', '2024-02-29', '0001-01-01', '1999-12-31'],
    [
      '',
      '24',
      '2024-13',
      '2024-00',
      '2024-02-30',
      '2023-02-29',
      '2024-1-5',
      '2024-01-01T00:00:00Z',
      '0000',
      20240101,
    ],
  ],
  [
    'dateTime',
    [
      '2024',
      '2024-05',
      '2024-05-17',
      '2024-05-17T10:30:00Z',
      '2024-05-17T10:30:00.123+02:00',
      '2024-05-17T23:59:60-14:00',
    ],
    [
      '',
      '2024-05-17T10:30',
      '2024-05-17T10:30:00',
      '2024-05-17T24:00:00Z',
      '2024-05-17 10:30:00Z',
      '2024-04-31',
      '2024-05-17T10:30:00+15:00',
    ],
  ],
  [
    'instant',
    ['2024-05-17T10:30:00Z', '2024-05-17T10:30:00.5-05:00', '2024-02-29T00:00:00+14:00'],
    ['', '2024-05-17', '2024-05-17T10:30:00', '2024', '2023-02-29T00:00:00Z', 1715941800000],
  ],
  [
    'time',
    ['00:00:00', '23:59:59', '12:30:00.250', '23:59:60'],
    ['', '24:00:00', '12:30', '12:60:00', '1:00:00', '12:30:00Z'],
  ],
  [
    'uuid',
    ['urn:uuid:123e4567-e89b-12d3-a456-426614174000'],
    [
      '',
      '123e4567-e89b-12d3-a456-426614174000',
      'urn:uuid:123E4567-E89B-12D3-A456-426614174000',
      'urn:uuid:1234',
      'urn:uuid:',
    ],
  ],
  [
    'oid',
    ['urn:oid:1.2.3', 'urn:oid:2.16.840.1.113883'],
    ['', '1.2.3', 'urn:oid:3.1', 'urn:oid:1', 'urn:oid:1.02', 'urn:oid:1..2'],
  ],
  ['base64Binary', ['SGVsbG8=', 'SGVsbG8gV29ybGQ=', 'AAAA BBBB'], ['', 'SGVsbG8', 'not base64!', 'SGV$bG8=']],
  [
    'code',
    ['final', 'mm[Hg]', 'two words', 'a', 'single\tseparator'],
    ['', ' final', 'final ', 'two  spaces', 'two\t\twhitespace', ' ', 3],
  ],
  [
    'uri',
    ['http://loinc.org', 'urn:uuid:x', 'Patient/1', '#ref'],
    ['', 'http://a b', ' http://a', 'http://a\n', 42],
  ],
  ['url', ['https://example.com/a?b=c', 'mailto:a@b.c'], ['', 'https://example.com/a b', '\t']],
  [
    'canonical',
    ['http://hl7.org/fhir/StructureDefinition/Patient|4.0.1'],
    ['', 'http://hl7.org/fhir/ Patient'],
  ],
  ['string', ['Maria', ' padded ', 'a\nb', ' '], ['', 1, true, null, ['a'], { a: 1 }]],
  ['markdown', ['**bold**', 'x'], ['', 0]],
  ['boolean', [true, false], ['true', 0, 1, null, '']],
  ['integer', [0, -1, 42, 2147483647, -2147483648], [1.5, 2147483648, -2147483649, '1', NaN, Infinity, true]],
  ['unsignedInt', [0, 1, 2147483647], [-1, 0.5, 2147483648, '0']],
  ['positiveInt', [1, 100, 2147483647], [0, -1, 1.1, 2147483648, '1']],
  ['decimal', [0, -1.5, 3.14159, 1e21, 120], [NaN, Infinity, -Infinity, '1.5', null, false]],
];

describe.each(cases)('SPEC §5 %s', (type, good, bad) => {
  test.each(good.map((value) => [value]))(`accepts %p`, (value) => {
    expect(validatePrimitive(type, value)).toBeUndefined();
  });
  test.each(bad.map((value) => [value]))(`rejects %p`, (value) => {
    expect(validatePrimitive(type, value)).toEqual(expect.any(String));
  });
});

describe('SPEC §5 primitive messages', () => {
  test('a bad format names the type', () => {
    expect(validatePrimitive('date', '2024-13-01')).toBe('Invalid date format');
    expect(validatePrimitive('code', ' final')).toBe('Invalid code format');
  });

  test('an empty string is never a value', () => {
    expect(validatePrimitive('string', '')).toBe('Invalid empty string');
    expect(validatePrimitive('uri', '')).toBe('Invalid empty uri');
  });

  test('a wrong JSON type says what was expected', () => {
    expect(validatePrimitive('boolean', 'true')).toBe(
      'Invalid JSON type for boolean: expected boolean, got string',
    );
    expect(validatePrimitive('string', 5)).toBe('Invalid JSON type for string: expected string, got number');
  });

  test('an unknown data type is reported (SPEC §8 "Unknown data type: {name}")', () => {
    expect(validatePrimitive('HumanName', 'x')).toBe('Unknown data type: HumanName');
    expect(validatePrimitive('toString', 'x')).toBe('Unknown data type: toString');
  });
});

describe('SPEC §5 isValidId', () => {
  test.each(['1', 'abc', 'a.b-c', 'Z'.repeat(64)])('valid %p', (id) => {
    expect(isValidId(id)).toBe(true);
  });
  test.each(['', 'Z'.repeat(65), 'a b', 'a/b', 'a_b', undefined, 5])('invalid %p', (id) => {
    expect(isValidId(id)).toBe(false);
  });
});
