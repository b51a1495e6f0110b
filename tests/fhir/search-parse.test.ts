import type { SearchParameterLookup } from '../../src/fhir/search';
import {
  parseFilter,
  parseSearchRequest,
  resolveSearchParameter,
  splitOrValues,
  splitParameterKey,
} from '../../src/fhir/search';
import { OperationOutcomeError } from '../../src/fhir';

function outcomeOf(fn: () => unknown): { text?: string; expression?: string[] } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(OperationOutcomeError);
    const issue = (err as OperationOutcomeError).outcome.issue[0];
    return { text: issue.details?.text, expression: issue.expression };
  }
  throw new Error('expected a throw');
}

describe('parseSearchRequest: SPEC §3 search state from a URL (SPEC §7)', () => {
  test('relative, absolute and path URLs give the type and filters', () => {
    for (const url of [
      'Patient?name=smi',
      '/fhir/R4/Patient?name=smi',
      'https://example.com/fhir/R4/Patient?name=smi',
      new URL('https://example.com/fhir/R4/Patient/?name=smi'),
    ]) {
      expect(parseSearchRequest(url)).toEqual({
        resourceType: 'Patient',
        filters: [{ code: 'name', operator: 'eq', value: 'smi' }],
      });
    }
    expect(parseSearchRequest('Patient')).toEqual({ resourceType: 'Patient' });
  });

  test('result parameters: _count, _offset, _total, _summary, _sort, _fields/_elements', () => {
    expect(
      parseSearchRequest(
        'Observation?_count=5&_offset=10&_total=accurate&_summary=data&_sort=-date,code&_elements=id,status&_fields=code',
      ),
    ).toEqual({
      resourceType: 'Observation',
      count: 5,
      offset: 10,
      total: 'accurate',
      summary: 'data',
      sortRules: [{ code: 'date', descending: true }, { code: 'code' }],
      fields: ['id', 'status', 'code'],
    });
  });

  test('_include and _revinclude with target type and :iterate (SPEC §3 include/revInclude)', () => {
    const request = parseSearchRequest(
      'Observation?_include=Observation:patient&_include:iterate=Patient:organization:Organization&_revinclude=Provenance:target',
    );
    expect(request.include).toEqual([
      { resourceType: 'Observation', searchParam: 'patient' },
      {
        resourceType: 'Patient',
        searchParam: 'organization',
        targetType: 'Organization',
        modifier: 'iterate',
      },
    ]);
    expect(request.revInclude).toEqual([{ resourceType: 'Provenance', searchParam: 'target' }]);
  });

  test('prefixes are split off for date, number and quantity parameters', () => {
    expect(parseSearchRequest('Observation?date=ge2020-01-01&date=lt2021').filters).toEqual([
      { code: 'date', operator: 'ge', value: '2020-01-01' },
      { code: 'date', operator: 'lt', value: '2021' },
    ]);
    expect(parseSearchRequest('Observation?value-quantity=gt100').filters).toEqual([
      { code: 'value-quantity', operator: 'gt', value: '100' },
    ]);
    expect(parseSearchRequest('RiskAssessment?probability=ap0.5').filters).toEqual([
      { code: 'probability', operator: 'ap', value: '0.5' },
    ]);
    expect(parseSearchRequest('Observation?date=eq2020').filters).toEqual([
      { code: 'date', operator: 'eq', value: '2020' },
    ]);
  });

  test('prefix-like text in string, token and unknown parameters is kept as the value', () => {
    expect(parseSearchRequest('Patient?name=gtx&gender=ne').filters).toEqual([
      { code: 'name', operator: 'eq', value: 'gtx' },
      { code: 'gender', operator: 'eq', value: 'ne' },
    ]);
    expect(parseSearchRequest('Patient?not-a-param=gt5').filters).toEqual([
      { code: 'not-a-param', operator: 'eq', value: 'gt5' },
    ]);
  });

  test('OR values share one prefix or keep their raw value', () => {
    expect(parseFilter('Observation', 'date', 'gt2020,gt2019')).toEqual({
      code: 'date',
      operator: 'gt',
      value: '2020,2019',
    });
    expect(parseFilter('Observation', 'date', 'gt2020,lt2019')).toEqual({
      code: 'date',
      operator: 'eq',
      value: 'gt2020,lt2019',
    });
  });

  test('modifiers become operators; commas and repeated keys are kept (OR in value, AND as filters)', () => {
    expect(
      parseSearchRequest('Patient?name:exact=Ann,Bo&name:contains=nn&gender:missing=true&_id:not=1').filters,
    ).toEqual([
      { code: 'name', operator: 'exact', value: 'Ann,Bo' },
      { code: 'name', operator: 'contains', value: 'nn' },
      { code: 'gender', operator: 'missing', value: 'true' },
      { code: '_id', operator: 'not', value: '1' },
    ]);
    for (const modifier of ['text', 'above', 'below', 'in', 'not-in', 'of-type', 'identifier']) {
      expect(parseFilter('Observation', `code:${modifier}`, 'x').operator).toBe(modifier);
    }
  });

  test('a reference type modifier becomes Type/id in the value', () => {
    expect(parseFilter('Observation', 'subject:Patient', '123,Group/9')).toEqual({
      code: 'subject',
      operator: 'eq',
      value: 'Patient/123,Group/9',
    });
  });

  test('chains and reverse chains keep their code; the last link decides prefix and modifier', () => {
    expect(parseFilter('Observation', 'subject:Patient.name', 'smi')).toEqual({
      code: 'subject:Patient.name',
      operator: 'eq',
      value: 'smi',
    });
    expect(parseFilter('Observation', 'subject:Patient.birthdate', 'lt2000')).toEqual({
      code: 'subject:Patient.birthdate',
      operator: 'lt',
      value: '2000',
    });
    expect(parseFilter('Observation', 'patient.name:exact', 'Ann')).toEqual({
      code: 'patient.name',
      operator: 'exact',
      value: 'Ann',
    });
    expect(parseFilter('Patient', '_has:Observation:subject:value-quantity', 'gt5')).toEqual({
      code: '_has:Observation:subject:value-quantity',
      operator: 'gt',
      value: '5',
    });
    expect(parseFilter('Patient', '_has:Observation:subject:code:not', '1')).toEqual({
      code: '_has:Observation:subject:code',
      operator: 'not',
      value: '1',
    });
  });

  test('_format and _pretty are output options, not filters', () => {
    expect(parseSearchRequest('Patient?_format=json&_pretty=true')).toEqual({ resourceType: 'Patient' });
  });

  test('query objects with repeated keys (as Fastify gives them) and URLSearchParams', () => {
    expect(
      parseSearchRequest({ resourceType: 'Observation', query: { date: ['ge2020', 'le2021'], _count: '2' } }),
    ).toEqual({
      resourceType: 'Observation',
      count: 2,
      filters: [
        { code: 'date', operator: 'ge', value: '2020' },
        { code: 'date', operator: 'le', value: '2021' },
      ],
    });
    expect(
      parseSearchRequest({ resourceType: 'Patient', query: new URLSearchParams('name=a%2Cb') }).filters,
    ).toEqual([{ code: 'name', operator: 'eq', value: 'a,b' }]);
  });

  test.each([
    ['Patient?_count=abc', '_count', "'_count' must be a whole number"],
    ['Patient?_count=-1', '_count', 'whole number'],
    ['Patient?_offset=1.5', '_offset', 'whole number'],
    ['Patient?_total=all', '_total', 'none, estimate, accurate'],
    ['Patient?_summary=yes', '_summary', 'true, text, data, count, false'],
    ['Patient?_sort=name,', '_sort', 'Empty sort key'],
    ['Patient?_include=Patient', '_include', "'Type:searchParam'"],
    ['Patient?_include=a:b:c:d', '_include', "'Type:searchParam'"],
    ['Patient?_include:deep=Patient:organization', '_include:deep', "Unknown modifier ':deep'"],
    ['Patient?name:fuzzy=x', 'name:fuzzy', "Unknown modifier ':fuzzy' on search parameter 'name'"],
    ['Patient?gender:Patient=x', 'gender:Patient', "Unknown modifier ':Patient'"],
  ])('%s is a 400 naming %s', (url, expression, text) => {
    const outcome = outcomeOf(() => parseSearchRequest(url));
    expect(outcome.expression).toEqual([expression]);
    expect(outcome.text).toContain(text);
  });

  test('an injected lookup replaces the definitions (browsers without the index)', () => {
    const lookup: SearchParameterLookup = (type, code) =>
      type === 'Thing' && code === 'size' ? { type: 'number' } : undefined;
    expect(parseSearchRequest('Thing?size=gt3&date=gt2020', { lookup }).filters).toEqual([
      { code: 'size', operator: 'gt', value: '3' },
      { code: 'date', operator: 'eq', value: 'gt2020' },
    ]);
  });
});

describe('search parameter keys and values', () => {
  test('splitParameterKey', () => {
    expect(splitParameterKey('name')).toEqual(['name', undefined]);
    expect(splitParameterKey('name:exact')).toEqual(['name', 'exact']);
    expect(splitParameterKey('subject:Patient')).toEqual(['subject', 'Patient']);
    expect(splitParameterKey('subject:Patient.name:exact')).toEqual(['subject:Patient.name', 'exact']);
    expect(splitParameterKey('_has:Observation:subject:code:not')).toEqual([
      '_has:Observation:subject:code',
      'not',
    ]);
    expect(splitParameterKey('_has:Observation')).toEqual(['_has:Observation', undefined]);
  });

  test('splitOrValues keeps escaped commas', () => {
    expect(splitOrValues('a,b\\,c,d')).toEqual(['a', 'b\\,c', 'd']);
    expect(splitOrValues('')).toEqual(['']);
  });

  test('resolveSearchParameter follows chains, _has and the common _compartment', () => {
    expect(resolveSearchParameter('Observation', 'subject:Patient.birthdate')?.type).toBe('date');
    expect(resolveSearchParameter('Observation', 'patient.organization.name')?.type).toBe('string');
    expect(resolveSearchParameter('Patient', '_has:Observation:subject:date')?.type).toBe('date');
    expect(resolveSearchParameter('Patient', '_compartment')?.type).toBe('reference');
    expect(resolveSearchParameter('Observation', 'status.name')).toBeUndefined();
    expect(resolveSearchParameter('Observation', 'subject:Patient.nothing')).toBeUndefined();
    expect(resolveSearchParameter('Patient', '_has:Observation')).toBeUndefined();
  });
});
