import fc from 'fast-check';
import type { Filter, IncludeTarget, SearchRequest, SortRule } from '../../src/fhir/search';
import { encodeSearchValue, formatSearchQuery, Operator, parseSearchRequest } from '../../src/fhir/search';

describe('formatSearchQuery: SPEC §7 URL building', () => {
  test('parameters sorted; _fields, _offset, _count, _total, _sort with - for descending, _include, _revinclude', () => {
    const request: SearchRequest = {
      resourceType: 'Observation',
      filters: [
        { code: 'subject', operator: 'eq', value: 'Patient/123' },
        { code: 'code', operator: 'eq', value: 'http://loinc.org|8867-4' },
      ],
      fields: ['id', '_lastUpdated'],
      sortRules: [{ code: 'date', descending: true }, { code: 'code' }],
      offset: 40,
      count: 20,
      total: 'accurate',
      include: [{ resourceType: 'Observation', searchParam: 'patient', targetType: 'Patient' }],
      revInclude: [{ resourceType: 'Provenance', searchParam: 'target', modifier: 'iterate' }],
    };
    expect(formatSearchQuery(request)).toBe(
      '?_count=20&_fields=id,_lastUpdated&_include=Observation:patient:Patient&_offset=40' +
        '&_revinclude:iterate=Provenance:target&_sort=-date,code&_total=accurate' +
        '&code=http://loinc.org|8867-4&subject=Patient/123',
    );
  });

  test('modifiers after the code, prefixes in the value, eq left out', () => {
    const filters: Filter[] = [
      { code: 'name', operator: 'contains', value: 'smi' },
      { code: 'gender', operator: 'missing', value: 'false' },
      { code: 'date', operator: 'ge', value: '2020-01-01' },
      { code: 'value-quantity', operator: 'gt', value: '100' },
      { code: 'birthdate', operator: 'eq', value: '2000' },
      { code: 'code', operator: 'not-in', value: 'http://example.com/vs' },
    ];
    expect(formatSearchQuery({ resourceType: 'Observation', filters })).toBe(
      '?birthdate=2000&code:not-in=http://example.com/vs&date=ge2020-01-01&gender:missing=false' +
        '&name:contains=smi&value-quantity=gt100',
    );
  });

  test('values are percent-encoded except the characters FHIR search syntax uses', () => {
    expect(encodeSearchValue('a b&c=d,e|f:g/h+é')).toBe('a%20b%26c%3Dd,e|f:g/h%2B%C3%A9');
    expect(
      formatSearchQuery({
        resourceType: 'Patient',
        filters: [{ code: 'name', operator: 'eq', value: 'O&Brien' }],
      }),
    ).toBe('?name=O%26Brien');
  });

  test('an empty request has no query string; offset and count 0 are still written', () => {
    expect(formatSearchQuery({ resourceType: 'Patient' })).toBe('');
    expect(formatSearchQuery({ resourceType: 'Patient', offset: 0, count: 0 })).toBe('?_count=0&_offset=0');
  });

  test('the same request in any order gives the same string', () => {
    const a: SearchRequest = {
      resourceType: 'Patient',
      filters: [
        { code: 'name', operator: 'eq', value: 'a' },
        { code: 'birthdate', operator: 'lt', value: '2000' },
      ],
    };
    const b: SearchRequest = { resourceType: 'Patient', filters: [...(a.filters ?? [])].reverse() };
    expect(formatSearchQuery(a)).toBe(formatSearchQuery(b));
  });
});

// Round trip: parse(format(request)) is the same request, filters compared as a set (AND commutes).
const TYPED_CODES: { code: string; ordered: boolean }[] = [
  { code: 'date', ordered: true },
  { code: 'value-quantity', ordered: true },
  { code: 'code', ordered: false },
  { code: 'status', ordered: false },
  { code: 'subject', ordered: false },
  { code: 'value-string', ordered: false },
];
const PREFIXES = ['eq', 'ne', 'gt', 'lt', 'ge', 'le', 'sa', 'eb', 'ap'] as const;
const MODIFIERS = [
  'contains',
  'exact',
  'text',
  'not',
  'above',
  'below',
  'in',
  'not-in',
  'of-type',
  'missing',
  'identifier',
] as const;
// Values that cannot be mistaken for a prefix: they start with a digit or a symbol.
const value = fc.stringMatching(/^[0-9|][\w .,|:/&=+é-]{0,12}$/);

const filterArb: fc.Arbitrary<Filter> = fc
  .record({
    param: fc.constantFrom(...TYPED_CODES),
    prefix: fc.constantFrom(...PREFIXES),
    modifier: fc.option(fc.constantFrom(...MODIFIERS), { nil: undefined }),
    value: value.filter((v) => !v.includes(',')),
  })
  .map(({ param, prefix, modifier, value: v }): Filter => {
    if (modifier) return { code: param.code, operator: modifier, value: v };
    return { code: param.code, operator: param.ordered ? prefix : Operator.EQUALS, value: v };
  });

const sortArb: fc.Arbitrary<SortRule> = fc
  .record({ code: fc.constantFrom('date', 'code', '_lastUpdated'), descending: fc.boolean() })
  .map(({ code, descending }) => (descending ? { code, descending } : { code }));

const includeArb: fc.Arbitrary<IncludeTarget> = fc
  .record({
    resourceType: fc.constantFrom('Observation', 'Patient'),
    searchParam: fc.constantFrom('subject', 'patient', 'organization'),
    targetType: fc.option(fc.constantFrom('Patient', 'Organization'), { nil: undefined }),
    iterate: fc.boolean(),
  })
  .map(({ resourceType, searchParam, targetType, iterate }) => {
    const target: IncludeTarget = { resourceType, searchParam };
    if (targetType) target.targetType = targetType;
    if (iterate) target.modifier = 'iterate';
    return target;
  });

const requestArb: fc.Arbitrary<SearchRequest> = fc
  .record(
    {
      filters: fc.array(filterArb, { minLength: 1, maxLength: 5 }),
      sortRules: fc.array(sortArb, { minLength: 1, maxLength: 3 }),
      offset: fc.nat({ max: 100000 }),
      count: fc.nat({ max: 1000 }),
      total: fc.constantFrom('none', 'estimate', 'accurate'),
      summary: fc.constantFrom('true', 'text', 'data', 'count', 'false'),
      fields: fc.array(fc.constantFrom('id', 'status', 'code', '_lastUpdated'), {
        minLength: 1,
        maxLength: 3,
      }),
      include: fc.array(includeArb, { minLength: 1, maxLength: 2 }),
      revInclude: fc.array(includeArb, { minLength: 1, maxLength: 2 }),
    },
    { requiredKeys: [] },
  )
  .map((parts) => ({ resourceType: 'Observation', ...parts }) as SearchRequest);

function normalized(request: SearchRequest): SearchRequest {
  const key = (f: Filter): string => `${f.code}\u0000${f.operator}\u0000${f.value}`;
  const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const sortBy = <T>(list: T[] | undefined, fn: (t: T) => string): T[] | undefined =>
    list && [...list].sort((a, b) => byKey(fn(a), fn(b)));
  const out: SearchRequest = { ...request };
  out.filters = sortBy(request.filters, key);
  out.include = sortBy(request.include, (t) => JSON.stringify(t));
  out.revInclude = sortBy(request.revInclude, (t) => JSON.stringify(t));
  for (const name of Object.keys(out) as (keyof SearchRequest)[]) {
    if (out[name] === undefined) delete out[name];
  }
  return out;
}

describe('parseSearchRequest ∘ formatSearchQuery round trip (SPEC §7)', () => {
  test('every generated request survives format then parse', () => {
    fc.assert(
      fc.property(requestArb, (request) => {
        const url = 'Observation' + formatSearchQuery(request);
        expect(normalized(parseSearchRequest(url))).toEqual(normalized(request));
      }),
      { seed: 20261122, numRuns: 300 },
    );
  });

  test('format ∘ parse is stable on real app URLs', () => {
    for (const url of [
      'Observation?_count=20&_sort=-date&code=http://loinc.org|8867-4&patient=Patient/1',
      'Slot?_count=720&schedule=Schedule/s1&start=gt2026-11-01T00:00:00Z&start=lt2026-12-02T00:00:00Z',
      'Communication?_sort=-sent&subject=Patient/1',
      'Patient?name=smi',
      'DiagnosticReport?_include=DiagnosticReport:result&_sort=-_lastUpdated&subject=Patient/1',
    ]) {
      const query = formatSearchQuery(parseSearchRequest(url));
      expect(url.slice(url.indexOf('?'))).toBe(query);
    }
  });
});
