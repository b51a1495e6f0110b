// Unit tests: the table's search state ↔ URL round trip (SPEC §3 search state, §4 Filters),
// operators and column menus of every parameter type (SPEC §5), value inputs, CSV and bundle export.
import fc from 'fast-check';
import type { SearchParameterType } from '../../../../src/fhir/definitions';
import {
  notContainsFilter,
  Operator,
  readNotContains,
  type SearchParameterLookup,
} from '../../../../src/fhir/search';
import { csvCell, resourcesToCsv } from '../../../../src/app/features/search-table/csvExport';
import { fieldText } from '../../../../src/app/features/search-table/fieldValue';
import {
  choiceOfFilter,
  columnMenuItems,
  filterOfChoice,
  filterTarget,
  operatorChoices,
  promptFilter,
  promptShowsComparator,
} from '../../../../src/app/features/search-table/operators';
import {
  addFilter,
  clearFiltersOf,
  effectiveRequest,
  readTableSearch,
  readWithoutSchema,
  setFields,
  setFilters,
  setOffset,
  setSort,
  tableFields,
  writeTableSearch,
  type TableSearch,
} from '../../../../src/app/features/search-table/searchState';
import { takePrefetched, markPrefetched } from '../../../../src/app/features/search-table/prefetchedRows';
import { resourcesToTransaction } from '../../../../src/app/features/search-table/transactionBundle';
import {
  EXPORT_LIMIT,
  readExportRows,
  type ExportSearcher,
} from '../../../../src/app/features/search-table/exportRows';
import type { Bundle } from '@medplum/fhirtypes';
import {
  filterValueText,
  formatQuantityValue,
  normalizeFilter,
  parseQuantityValue,
  valueInputKind,
} from '../../../../src/app/features/search-table/valueInputKind';
import { parseSearchTables } from '../../../../src/app/features/search-table/tableSettings';
import { batchRowResults } from '../../../../src/app/features/search-table/batchResults';

const TYPES: Record<string, SearchParameterType> = {
  _id: 'token',
  _lastUpdated: 'date',
  status: 'token',
  date: 'date',
  'value-quantity': 'quantity',
  subject: 'reference',
  'value-string': 'string',
  length: 'number',
};
const lookup: SearchParameterLookup = (type, code) =>
  type === 'Observation' && TYPES[code] ? { type: TYPES[code] } : undefined;

function read(query: string): TableSearch {
  return readTableSearch('Observation', query, lookup);
}

describe('SPEC §3 search state ↔ URL', () => {
  it('round-trips filters of every operator, sort, paging, fields and the saved-search name', () => {
    const query =
      '?_count=50&_fields=id,status,effective&_offset=100&_sort=-date,status&date=ge2024-01-01' +
      '&length:missing=true&status:not=final&subject=Patient/1&value-quantity=lt5.4||mg' +
      '&value-string:contains=high&_savedSearch=My%20search';
    const state = read(query);
    expect(state.savedSearchName).toBe('My search');
    expect(state.request.sortRules).toEqual([{ code: 'date', descending: true }, { code: 'status' }]);
    expect(state.request.filters).toContainEqual({ code: 'date', operator: 'ge', value: '2024-01-01' });
    expect(state.request.filters).toContainEqual({
      code: 'value-quantity',
      operator: 'lt',
      value: '5.4||mg',
    });
    expect(state.request.filters).toContainEqual({ code: 'status', operator: 'not', value: 'final' });
    expect(read(writeTableSearch(state))).toEqual(state);
  });

  it('round-trips generated states (property)', () => {
    const filter = fc.record({
      code: fc.constantFrom('status', 'date', 'value-string'),
      operator: fc.constant(Operator.EQUALS),
      // A date value starting with letters would read as a prefix ('gea'): values start with a digit.
      value: fc.stringMatching(/^[0-9][a-z0-9]{0,7}$/),
    });
    fc.assert(
      fc.property(fc.array(filter, { maxLength: 4 }), fc.nat({ max: 500 }), (filters, offset) => {
        const state = setOffset(setFilters({ request: { resourceType: 'Observation' } }, filters), offset);
        const back = read(writeTableSearch(state));
        // The URL's parameters are sorted (SPEC §7), so filters come back in URL order: the same set.
        const key = (f: { code: string; value: string }) => `${f.code}=${f.value}`;
        expect((back.request.filters ?? []).map(key).sort()).toEqual(filters.map(key).sort());
        expect(back.request.offset).toBe(offset > 0 ? offset : undefined);
        expect(writeTableSearch(back)).toBe(writeTableSearch(state));
      }),
    );
  });

  it('an empty query is the bare type, and the defaults fill in what is sent', () => {
    const state = read('');
    expect(writeTableSearch(state)).toBe('');
    expect(effectiveRequest(state.request)).toEqual({
      resourceType: 'Observation',
      fields: ['subject', 'code', 'value', 'effective', 'status', '_lastUpdated'],
      offset: 0,
      count: 20,
      total: 'accurate',
    });
    expect(effectiveRequest(read('?_count=500').request).count).toBe(100);
  });

  it('a malformed query throws a 400 outcome naming the parameter', () => {
    expect(() => read('?_count=abc')).toThrow(/_count/);
    expect(() => read('?status:bogus=x')).toThrow(/Unknown modifier/);
  });

  it('SPEC §4 changing a filter resets the offset to 0 and clears the saved search name', () => {
    const state = read('?_offset=40&_savedSearch=Mine&status=final');
    const next = addFilter(state, { code: 'date', operator: Operator.GREATER_THAN, value: '2024' });
    expect(next.request.offset).toBeUndefined();
    expect(next.savedSearchName).toBeUndefined();
    expect(writeTableSearch(next)).toBe('?date=gt2024&status=final');
    const cleared = clearFiltersOf(next, 'status');
    expect(cleared.request.filters).toEqual([{ code: 'date', operator: 'gt', value: '2024' }]);
    expect(writeTableSearch(setFilters(cleared, []))).toBe('');
  });

  it('SPEC §4 sorting again by the same field and direction changes nothing', () => {
    const state = read('?_offset=40&_sort=-date');
    expect(setSort(state, 'date', true)).toBe(state);
    const flipped = setSort(state, 'date', false);
    expect(flipped.request.sortRules).toEqual([{ code: 'date' }]);
    expect(flipped.request.offset).toBeUndefined();
    const other = setSort(flipped, 'status', true);
    expect(other.request.sortRules).toEqual([{ code: 'status', descending: true }, { code: 'date' }]);
  });

  it('fields and offset keep the saved search name; an empty field list means the defaults', () => {
    const state = read('?_savedSearch=Mine');
    expect(setFields(state, ['status']).savedSearchName).toBe('Mine');
    expect(writeTableSearch(setFields(state, []))).toBe('?_savedSearch=Mine');
    expect(writeTableSearch(setOffset(state, 20))).toBe('?_offset=20&_savedSearch=Mine');
  });
});

describe('SPEC §5 operators by parameter type', () => {
  const ids = (type: SearchParameterType) => operatorChoices(type).map((choice) => choice.id);
  it.each<[SearchParameterType, string[]]>([
    ['string', ['eq', 'not', 'contains', 'not-contains', 'exact', 'missing', 'not-missing']],
    ['token', ['eq', 'not', 'missing', 'not-missing']],
    ['reference', ['eq', 'not', 'missing', 'not-missing']],
    ['uri', ['eq', 'not', 'missing', 'not-missing']],
    ['number', ['eq', 'ne', 'gt', 'lt', 'ge', 'le', 'missing', 'not-missing']],
    ['quantity', ['eq', 'ne', 'gt', 'lt', 'ge', 'le', 'missing', 'not-missing']],
    ['date', ['eq', 'ne', 'gt', 'lt', 'ge', 'le', 'sa', 'eb', 'ap', 'missing', 'not-missing']],
    ['composite', ['missing', 'not-missing']],
    ['special', ['missing', 'not-missing']],
  ])('%s offers %j', (type, expected) => {
    expect(ids(type)).toEqual(expected);
  });

  const labels = (type: SearchParameterType | undefined) => columnMenuItems(type).map((item) => item.label);
  const sortAndEquals = ['Sort A to Z', 'Sort Z to A', 'Equals...', 'Does not equal...'];
  const tail = ['Missing', 'Not missing', 'Clear filters'];
  it.each<[SearchParameterType, string[]]>([
    ['string', [...sortAndEquals, 'Contains...', 'Does not contain...', ...tail]],
    ['token', [...sortAndEquals, ...tail]],
    ['reference', [...sortAndEquals, ...tail]],
    ['uri', [...sortAndEquals, ...tail]],
    ['number', [...sortAndEquals, ...tail]],
    ['quantity', [...sortAndEquals, ...tail]],
    ['date', [...sortAndEquals, ...tail]],
    ['composite', tail],
    ['special', tail],
  ])('column menu of a %s column', (type, expected) => {
    expect(labels(type)).toEqual(expected);
  });

  it('a column without a search parameter has no menu items; "Does not equal" sends what it says', () => {
    expect(columnMenuItems(undefined)).toEqual([]);
    const notEquals = (type: SearchParameterType) =>
      columnMenuItems(type).find((item) => item.action === 'not-equals')?.operator;
    expect(notEquals('token')).toBe('not');
    expect(notEquals('string')).toBe('not');
    expect(notEquals('date')).toBe('ne');
    expect(notEquals('quantity')).toBe('ne');
  });

  it('\'Does not contain\' sends _filter=not (<param> co "<value>") and round-trips in the URL under its parameter', () => {
    const choice = operatorChoices('string').find((candidate) => candidate.id === 'not-contains');
    if (!choice) throw new Error('no not-contains choice');
    const filter = filterOfChoice('value-string', choice, 'say "hi" \\ there');
    expect(filter).toEqual({
      code: '_filter',
      operator: 'eq',
      value: 'not (value-string co "say \\"hi\\" \\\\ there")',
    });
    const query = writeTableSearch(addFilter(read('?status=final'), filter));
    expect(query).toBe(
      '?_filter=not%20(value-string%20co%20%22say%20%5C%22hi%5C%22%20%5C%5C%20there%22)&status=final',
    );
    const back = read(query);
    expect(back.request.filters).toContainEqual(filter);
    expect(readNotContains(back.request.filters![0])).toEqual({
      code: 'value-string',
      value: 'say "hi" \\ there',
    });
    expect(filterTarget(filter)).toEqual({ code: 'value-string', value: 'say "hi" \\ there' });
    expect(choiceOfFilter('string', filter)?.label).toBe('does not contain');
    // 'Clear filters' on the column drops it with the column's other filters.
    expect(writeTableSearch(clearFiltersOf(back, 'value-string'))).toBe('?status=final');
    // Other _filter expressions are not read as 'does not contain'.
    for (const value of [
      'value-string co "x"',
      'not (subject.name co "x")',
      'not (status eq x)',
      'not (',
      'not (a co "x") and b eq y',
    ]) {
      expect(readNotContains({ code: '_filter', operator: Operator.EQUALS, value })).toBeUndefined();
    }
  });
});

describe('SPEC §5 value inputs', () => {
  it.each<[SearchParameterType, string[], string]>([
    ['reference', ['Reference'], 'reference'],
    ['token', ['boolean'], 'boolean'],
    ['token', ['CodeableConcept'], 'text'],
    ['date', ['date'], 'date'],
    ['date', ['dateTime', 'Period'], 'datetime'],
    ['number', ['integer'], 'number'],
    ['quantity', ['Quantity'], 'quantity'],
    ['string', ['string'], 'text'],
    ['uri', ['uri'], 'text'],
  ])('%s over %j is a %s input', (type, elementTypes, kind) => {
    expect(valueInputKind(type, elementTypes)).toBe(kind);
  });

  it('a quantity keeps its unit and system; its comparator becomes the operator', () => {
    const parsed = parseQuantityValue('ge5.4|http://unitsofmeasure.org|mg');
    expect(parsed).toEqual({
      comparator: '>=',
      number: '5.4',
      system: 'http://unitsofmeasure.org',
      unit: 'mg',
    });
    expect(formatQuantityValue(parsed)).toBe('ge5.4|http://unitsofmeasure.org|mg');
    expect(formatQuantityValue({ comparator: '<', number: '7', system: '', unit: 'kg' })).toBe('lt7||kg');
    expect(formatQuantityValue({ comparator: '', number: '7', system: '', unit: '' })).toBe('7');
    expect(normalizeFilter('quantity', { code: 'q', operator: Operator.EQUALS, value: 'lt7||kg' })).toEqual({
      code: 'q',
      operator: 'lt',
      value: '7||kg',
    });
    expect(filterValueText('quantity', '5.4|http://unitsofmeasure.org|mg')).toBe(
      '5.4 mg (http://unitsofmeasure.org)',
    );
    expect(filterValueText('quantity', '7')).toBe('7');
    expect(filterValueText('token', 'http://loinc.org|8867-4')).toBe('http://loinc.org|8867-4');
    expect(normalizeFilter('token', { code: 't', operator: Operator.EQUALS, value: 'lt7' }).operator).toBe(
      'eq',
    );
  });

  it("a quantity's comparator goes with 'equals' only: 'Does not equal...' sends ne, never 'nelt'", () => {
    // A comparator left in the value when the operation changed is dropped: the operation was asked for.
    expect(
      normalizeFilter('quantity', { code: 'q', operator: Operator.NOT_EQUALS, value: 'lt7||kg' }),
    ).toEqual({ code: 'q', operator: 'ne', value: '7||kg' });
    expect(normalizeFilter('quantity', { code: 'q', operator: Operator.GREATER_THAN, value: 'le7' })).toEqual(
      { code: 'q', operator: 'gt', value: '7' },
    );
    const item = (action: string) => {
      const found = columnMenuItems('quantity').find((candidate) => candidate.action === action);
      if (!found) throw new Error(`no ${action} item`);
      return found;
    };
    expect(promptShowsComparator(item('equals'))).toBe(true);
    expect(promptShowsComparator(item('not-equals'))).toBe(false);
    expect(promptFilter('quantity', 'value-quantity', item('equals'), 'lt5||kg')).toEqual({
      code: 'value-quantity',
      operator: 'lt',
      value: '5||kg',
    });
    const notEquals = promptFilter('quantity', 'value-quantity', item('not-equals'), 'lt5||kg');
    expect(notEquals).toEqual({ code: 'value-quantity', operator: 'ne', value: '5||kg' });
    expect(writeTableSearch(addFilter(read(''), notEquals))).toBe('?value-quantity=ne5||kg');
    const notContains = columnMenuItems('string').find((candidate) => candidate.action === 'not-contains');
    expect(promptFilter('string', 'value-string', notContains!, 'hi')).toEqual(
      notContainsFilter('value-string', 'hi'),
    );
  });

  it('a token filter keeps system|code through the URL', () => {
    const state = addFilter(read(''), {
      code: 'status',
      operator: Operator.EQUALS,
      value: 'http://loinc.org|8867-4',
    });
    expect(writeTableSearch(state)).toBe('?status=http://loinc.org|8867-4');
    expect(read(writeTableSearch(state))).toEqual(state);
  });
});

describe('issue #9 export files and reports', () => {
  it('CSV cells that a spreadsheet would run are neutralised and quoting follows RFC 4180', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=1,2')).toBe('"\'=1,2"');
    expect(csvCell('plain')).toBe('plain');
  });

  it('CSV rows read fields, choice elements and data types', () => {
    const csv = resourcesToCsv(
      ['id', 'code', 'value', '_lastUpdated'],
      [
        {
          resourceType: 'Observation',
          id: 'o1',
          code: { text: 'Weight' },
          valueQuantity: { value: 70, unit: 'kg' },
          meta: { lastUpdated: '2024-01-01T00:00:00Z' },
        },
      ],
    );
    expect(csv).toBe('ID,Code,Value,Last Updated\r\no1,Weight,70 kg,2024-01-01T00:00:00Z\r\n');
    expect(fieldText({ subject: { reference: 'Patient/1', display: 'Maria' } }, 'subject')).toBe('Maria');
  });

  it('a transaction bundle creates every resource and keeps references between them', () => {
    let n = 0;
    const bundle = resourcesToTransaction(
      [
        { resourceType: 'Patient', id: 'p1', meta: { versionId: '3' } },
        {
          resourceType: 'Observation',
          id: 'o1',
          status: 'final',
          code: {},
          subject: { reference: 'Patient/p1' },
        },
        {
          resourceType: 'Observation',
          id: 'o2',
          status: 'final',
          code: {},
          subject: { reference: 'Patient/zz' },
        },
      ],
      () => `u${++n}`,
    );
    expect(bundle.type).toBe('transaction');
    expect(bundle.entry?.map((entry) => entry.request)).toEqual([
      { method: 'POST', url: 'Patient' },
      { method: 'POST', url: 'Observation' },
      { method: 'POST', url: 'Observation' },
    ]);
    expect(bundle.entry?.[0].resource).toEqual({ resourceType: 'Patient' });
    expect(bundle.entry?.[1].resource).toMatchObject({ subject: { reference: 'urn:uuid:u1' } });
    expect(bundle.entry?.[2].resource).toMatchObject({ subject: { reference: 'Patient/zz' } });
  });

  it("SPEC §9 an export reads page after page and stops at 'Limited to 1000 records'", async () => {
    // A server with more matches than the limit: every page it is asked for is full.
    const asked: { offset?: number; count?: number; total?: string; fields?: readonly string[] }[] = [];
    const server: ExportSearcher = {
      search: (request) => {
        asked.push({
          offset: request.offset,
          count: request.count,
          total: request.total,
          fields: request.fields,
        });
        const bundle: Bundle = {
          resourceType: 'Bundle',
          type: 'searchset',
          entry: Array.from({ length: request.count ?? 0 }, (_, i) => ({
            resource: {
              resourceType: 'Observation',
              id: `o${(request.offset ?? 0) + i}`,
              status: 'final',
              code: { text: 'Weight' },
            },
          })),
        };
        return Promise.resolve(bundle);
      },
    };
    const rows = await readExportRows(
      server,
      { resourceType: 'Observation', offset: 40, count: 20, total: 'accurate' },
      ['id'],
    );
    expect(EXPORT_LIMIT).toBe(1000);
    expect(rows).toHaveLength(1000);
    expect(rows[999].id).toBe('o999');
    // From the first match, not the table's page; 100 a page; no total asked.
    expect(asked.map((page) => page.offset)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    expect(asked.every((page) => page.count === 100 && page.total === 'none')).toBe(true);
    expect(asked[0].fields).toEqual(['id']);
    // A limit that is not a whole number of pages asks only for what is left.
    asked.length = 0;
    expect(await readExportRows(server, { resourceType: 'Observation' }, undefined, 250)).toHaveLength(250);
    expect(asked.map((page) => [page.offset, page.count])).toEqual([
      [0, 100],
      [100, 100],
      [200, 50],
    ]);
    expect(asked[0].fields).toBeUndefined();
  });

  it('stored table settings: good values kept, anything malformed ignored', () => {
    const stored = (layout: string) => `{"tables":{"Observation":${layout}}}`;
    expect(
      parseSearchTables(stored('{"fields":["id","status"],"widths":{"id":120,"x":-1},"used":5}')).get(
        'Observation',
      ),
    ).toEqual({ fields: ['id', 'status'], widths: { id: 120 }, used: 5 });
    expect(parseSearchTables('not json').size).toBe(0);
    expect(parseSearchTables(stored('{"fields":[1]}')).size).toBe(0);
    expect(parseSearchTables(undefined).size).toBe(0);
  });

  it('batch results report each row, failures with the outcome text', () => {
    const results = batchRowResults(['a', 'b', 'c'], {
      resourceType: 'Bundle',
      type: 'batch-response',
      entry: [
        { response: { status: '200 OK' } },
        {
          response: {
            status: '403',
            outcome: {
              resourceType: 'OperationOutcome',
              issue: [{ severity: 'error', code: 'forbidden', details: { text: 'Forbidden' } }],
            },
          },
        },
      ],
    });
    expect(results).toEqual([
      { id: 'a', ok: true },
      { id: 'b', ok: false, message: 'Forbidden' },
      { id: 'c', ok: false, message: 'No response' },
    ]);
  });
});

describe('the rows asked for before the schema answers', () => {
  it('a URL without filters reads without the schema; one with filters, or malformed, waits for it', () => {
    expect(readWithoutSchema('Observation', '?_count=100&_sort=-_lastUpdated&_fields=code')).toEqual({
      request: {
        resourceType: 'Observation',
        count: 100,
        sortRules: [{ code: '_lastUpdated', descending: true }],
        fields: ['code'],
      },
    });
    expect(readWithoutSchema('Observation', '')).toEqual({ request: { resourceType: 'Observation' } });
    expect(readWithoutSchema('Observation', '?status=final')).toBeUndefined();
    expect(readWithoutSchema('Observation', '?_count=abc')).toBeUndefined();
  });

  it("the URL's fields win over the saved ones, which win over the type's defaults", () => {
    const bare = { resourceType: 'Patient' };
    expect(tableFields({ ...bare, fields: ['id'] }, ['name'])).toEqual(['id']);
    expect(tableFields(bare, ['name'])).toEqual(['name']);
    expect(tableFields(bare, undefined)).toEqual([
      'name',
      'birthDate',
      'gender',
      'identifier',
      '_lastUpdated',
    ]);
  });

  it('prefetched rows are taken once, and only while fresh', () => {
    const variables = { resourceType: 'Observation', search: '_count=20' };
    markPrefetched(variables, 1_000);
    expect(takePrefetched(variables, 2_000)).toBe(true);
    expect(takePrefetched(variables, 2_000)).toBe(false);
    markPrefetched(variables, 1_000);
    expect(takePrefetched(variables, 1_000 + 61_000)).toBe(false);
    expect(takePrefetched({ resourceType: 'Patient', search: '_count=20' })).toBe(false);
  });
});
