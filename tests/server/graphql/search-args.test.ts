// GraphQL search arguments → the SearchRequest of SPEC §3: names back to codes, the
// value prefixes the REST parser understands, _sort/_count/_offset, a reverse lookup's filter first;
// _filter and _compartment, checked as the REST search checks them.
import { Operator } from '../../../src/fhir/search/types';
import {
  argNameToSearchParam,
  graphQLTypeName,
  searchParamToArgName,
} from '../../../src/server/graphql/naming';
import {
  DEFAULT_SEARCH_COUNT,
  MAX_SEARCH_COUNT,
  toSearchRequest,
} from '../../../src/server/graphql/search-args';

describe('issue #6 GraphQL names (Medplum conventions)', () => {
  it("writes '-' as '_' in argument names and back, leaving _id and _lastUpdated alone", () => {
    expect(searchParamToArgName('based-on')).toBe('based_on');
    expect(searchParamToArgName('_lastUpdated')).toBe('_lastUpdated');
    expect(searchParamToArgName('bad.name')).toBeUndefined();
    expect(argNameToSearchParam('based_on')).toBe('based-on');
    expect(argNameToSearchParam('_lastUpdated')).toBe('_lastUpdated');
  });

  it('names nested element types by their capitalized path', () => {
    expect(graphQLTypeName('Patient')).toBe('Patient');
    expect(graphQLTypeName('Patient.contact')).toBe('PatientContact');
    expect(graphQLTypeName('Bundle.entry.request')).toBe('BundleEntryRequest');
  });
});

describe('issue #6 toSearchRequest', () => {
  it('search parameters become filters, prefixes only on ordered types, paging defaulted', () => {
    const request = toSearchRequest('Observation', {
      code: 'http://loinc.org|1234-5',
      date: 'ge2026-01-01',
      value_quantity: 'lt5.4',
      status: 'eq-not-a-prefix',
      based_on: 'ServiceRequest/1',
    });
    expect(request.resourceType).toBe('Observation');
    expect(request.filters).toEqual(
      expect.arrayContaining([
        { code: 'code', operator: Operator.EQUALS, value: 'http://loinc.org|1234-5' },
        { code: 'date', operator: Operator.GREATER_THAN_OR_EQUALS, value: '2026-01-01' },
        { code: 'value-quantity', operator: Operator.LESS_THAN, value: '5.4' },
        { code: 'status', operator: Operator.EQUALS, value: 'eq-not-a-prefix' },
        { code: 'based-on', operator: Operator.EQUALS, value: 'ServiceRequest/1' },
      ]),
    );
    expect(request.filters).toHaveLength(5);
    expect(request.count).toBe(DEFAULT_SEARCH_COUNT);
    expect(request.offset).toBe(0);
  });

  it('_sort, _count and _offset; a huge _count is capped; null arguments are ignored', () => {
    const request = toSearchRequest('Communication', {
      _sort: '-sent,_id',
      _count: 5000,
      _offset: 40,
      subject: null,
    });
    expect(request.sortRules).toEqual([{ code: 'sent', descending: true }, { code: '_id' }]);
    expect(request.count).toBe(MAX_SEARCH_COUNT);
    expect(request.offset).toBe(40);
    expect(request.filters ?? []).toEqual([]);
  });

  it("a reverse lookup's _reference filter comes first and points at the parent resource", () => {
    const request = toSearchRequest('Observation', { _reference: 'subject', code: 'x' }, 'Patient/123');
    expect(request.filters?.[0]).toEqual({
      code: 'subject',
      operator: Operator.EQUALS,
      value: 'Patient/123',
    });
    expect(request.filters).toHaveLength(2);
  });

  it('_filter and _compartment become the filters their URL parameters are (issue #20)', () => {
    const request = toSearchRequest('Observation', {
      _filter: 'status eq final',
      _compartment: 'Patient/123',
    });
    expect(request.filters).toEqual([
      { code: '_filter', operator: Operator.EQUALS, value: 'status eq final' },
      { code: '_compartment', operator: Operator.EQUALS, value: 'Patient/123' },
    ]);
  });

  it('a malformed _filter or an unknown _sort is the REST search 400, naming the argument (issue #20)', () => {
    expect(() => toSearchRequest('Patient', { _filter: 'family eq' })).toThrow(/\(_filter\)$/);
    expect(() => toSearchRequest('Patient', { _sort: 'nonsense' })).toThrow(/\(_sort\)$/);
  });

  it('a negative _count is refused like in a search URL (400)', () => {
    expect(() => toSearchRequest('Patient', { _count: -1 })).toThrow(/_count/);
  });
});
