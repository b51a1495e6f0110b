import { OperationOutcomeError } from '../../../src/fhir';
import {
  DEFAULT_SEARCH_COUNT,
  isLenientHandling,
  MAX_SEARCH_COUNT,
  validateSearchQuery,
} from '../../../src/server/search/request-validation';

function rejection(type: string, query: string, lenient = false): { text?: string; expression?: string[] } {
  try {
    validateSearchQuery(type, new URLSearchParams(query), { lenient });
  } catch (err) {
    expect(err).toBeInstanceOf(OperationOutcomeError);
    const outcome = (err as OperationOutcomeError).outcome;
    expect(outcome.issue[0].code).toBe('invalid');
    return { text: outcome.issue[0].details?.text, expression: outcome.issue[0].expression };
  }
  throw new Error(`${type}?${query} was accepted`);
}

describe('search request validation (issue #4: 400 naming the parameter, strict by default)', () => {
  test.each([
    ['Patient', 'nickname=x', 'nickname', "Unknown search parameter 'nickname' for Patient"],
    ['Patient', 'name:fuzzy=x', 'name:fuzzy', "Unknown modifier ':fuzzy'"],
    [
      'Observation',
      'date:exact=2020',
      'date:exact',
      "Modifier ':exact' is not allowed on date parameter 'date'",
    ],
    ['Patient', 'gender:contains=f', 'gender:contains', "':contains' is not allowed on token"],
    ['Observation', 'date=2020-13', 'date', "Invalid value '2020-13' for search parameter 'date'"],
    ['Observation', 'date=gtyesterday', 'date', "Invalid value 'yesterday'"],
    ['Observation', 'date=2020-01-01T25:00', 'date', 'a calendar date and time'],
    ['Observation', 'date=ge2020,lt20x', 'date', "Invalid value 'lt20x'"],
    ['Observation', 'value-quantity=gtabc', 'value-quantity', "Invalid value 'abc'"],
    ['Observation', 'value-quantity=5|http://unitsofmeasure.org', 'value-quantity', 'number|system|code'],
    ['RiskAssessment', 'probability=0.5.5', 'probability', 'a decimal number'],
    ['Patient', 'identifier=a|b|c', 'identifier', 'system|code'],
    ['Observation', 'subject=not a ref', 'subject', 'an id, Type/id or an absolute URL'],
    ['Patient', 'gender:missing=maybe', 'gender:missing', 'must be true or false'],
    ['Patient', 'name=', 'name', 'expected a value'],
    ['Observation', 'combo-code-value-quantity=abc', 'combo-code-value-quantity', 'joined by $'],
    ['Observation', 'subject:Patient.nickname=x', 'subject:Patient.nickname', 'Unknown search parameter'],
    [
      'Patient',
      '_has:Observation:subject:nothing=1',
      '_has:Observation:subject:nothing',
      'Unknown search parameter',
    ],
    ['Patient', '_count=x', '_count', 'whole number'],
    ['Patient', '_count=1&_count=2', '_count', 'given more than once'],
    ['Patient', '_offset=50001', '_offset', 'at most 50000'],
    ['Patient', '_sort=-nickname', '_sort', "Cannot sort by 'nickname'"],
    [
      'Observation',
      '_sort=code-value-quantity',
      '_sort',
      "Cannot sort by composite parameter 'code-value-quantity'",
    ],
    ['Location', '_sort=near', '_sort', "Cannot sort by special parameter 'near'"],
    ['Observation', '_include=Observation:status', '_include', 'not a reference parameter'],
    ['Observation', '_include=Patient:organization', '_include', 'without :iterate'],
    ['Observation', '_include=Observation:subject:Medication', '_include', 'cannot point at Medication'],
    ['Observation', '_include=Observation:subject:Nothing', '_include', "unknown target type 'Nothing'"],
    ['Patient', '_revinclude=Nothing:subject', '_revinclude', "unknown resource type 'Nothing'"],
    ['Patient', '_elements=nickname', '_elements', "Unknown element 'nickname'"],
    ['Patient', '_list=x', '_list', "'_list' is not supported"],
    ['Patient', '_filter=name xx x', '_filter', "unknown operator 'xx' (expected one of eq ne"],
    ['Patient', '_filter:exact=name eq x', '_filter:exact', '_filter takes no modifier'],
    ['Patient', '_total=all', '_total', 'none, estimate, accurate'],
  ])('%s?%s → 400 on %s', (type, query, expression, text) => {
    const outcome = rejection(type, query);
    expect(outcome.expression).toEqual([expression]);
    expect(outcome.text).toContain(text);
  });

  test('well-formed values of every parameter type pass', () => {
    const request = validateSearchQuery(
      'Observation',
      new URLSearchParams(
        [
          'date=ge2020-01-01T10:00:00.123%2B02:00',
          'date=lt2021',
          'value-quantity=gt5.4|http://unitsofmeasure.org|mg',
          'value-quantity=le1e3||mg',
          'code=http://loinc.org|8867-4,|x,http://loinc.org|',
          'subject=Patient/1,https://example.com/fhir/Patient/2,3,Patient/4/_history/2',
          'subject:identifier=http://ids|123',
          'value-string:contains=abc',
          'status:not=final',
          'code:in=http://example.com/vs',
          'code-value-quantity=http://loinc.org|8867-4$gt100',
          'subject:Patient.name=smi',
          'patient.birthdate=lt2000',
          '_lastUpdated=gt2020-01-01',
          '_tag=http://x|y',
          '_id=abc',
          '_sort=-date,_lastUpdated',
          '_include=Observation:subject:Patient',
          '_include:iterate=Patient:organization',
          '_revinclude=Provenance:target',
          '_elements=id,status,valueQuantity,value',
          '_total=accurate',
          '_offset=10',
        ].join('&'),
      ),
    );
    expect(request.filters).toHaveLength(16);
    expect(request.count).toBe(DEFAULT_SEARCH_COUNT);
    expect(request.fields).toEqual(['id', 'status', 'valueQuantity', 'value']);
  });

  test('_has reverse chains and the common _compartment are known parameters', () => {
    expect(
      validateSearchQuery(
        'Patient',
        new URLSearchParams('_has:Observation:subject:code=1234&_compartment=Patient/1'),
      ).filters,
    ).toEqual([
      { code: '_has:Observation:subject:code', operator: 'eq', value: '1234' },
      { code: '_compartment', operator: 'eq', value: 'Patient/1' },
    ]);
  });

  test('_count above the cap is capped, not refused', () => {
    expect(validateSearchQuery('Slot', { _count: '5000' }).count).toBe(MAX_SEARCH_COUNT);
    expect(validateSearchQuery('Slot', { _count: '720' }).count).toBe(720);
  });

  test('Prefer: handling=lenient ignores unknown parameters and unknown elements, not malformed values', () => {
    const request = validateSearchQuery(
      'Patient',
      new URLSearchParams('nickname:fuzzy=x&name=smi&_elements=id,nickname&_list=x'),
      { lenient: true },
    );
    expect(request.filters).toEqual([{ code: 'name', operator: 'eq', value: 'smi' }]);
    expect(request.fields).toEqual(['id']);
    expect(rejection('Observation', 'nickname=1&date=20xx', true).expression).toEqual(['date']);
  });

  test('isLenientHandling reads the Prefer header', () => {
    expect(isLenientHandling('handling=lenient')).toBe(true);
    expect(isLenientHandling('return=minimal, handling=lenient')).toBe(true);
    expect(isLenientHandling('handling=strict')).toBe(false);
    expect(isLenientHandling(undefined)).toBe(false);
  });
});
