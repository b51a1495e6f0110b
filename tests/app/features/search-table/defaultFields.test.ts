// Unit tests: per-type default columns of the search table (they extend SPEC §3's ['id', '_lastUpdated']).
import { defaultFieldsOf, DEFAULT_FIELDS } from '../../../../src/app/features/search-table/defaultFields';
import { fieldText } from '../../../../src/app/features/search-table/fieldValue';

describe('search table default columns (SPEC §3, extended per type)', () => {
  it('Observation and Patient show what a clinician scans by, then _lastUpdated', () => {
    expect(defaultFieldsOf('Observation')).toEqual([
      'subject',
      'code',
      'value',
      'effective',
      'status',
      '_lastUpdated',
    ]);
    expect(defaultFieldsOf('Patient')).toEqual(['name', 'birthDate', 'gender', 'identifier', '_lastUpdated']);
  });

  it('a type not listed falls back to SPEC §3 id and _lastUpdated, and callers get a fresh copy', () => {
    expect(defaultFieldsOf('Basic')).toEqual(['id', '_lastUpdated']);
    expect(DEFAULT_FIELDS).toEqual(['id', '_lastUpdated']);
    const fields = defaultFieldsOf('Basic');
    fields.push('x');
    expect(defaultFieldsOf('Basic')).toEqual(['id', '_lastUpdated']);
  });

  it('AccessPolicy.resource entries read as the types they name', () => {
    const policy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Patient' }, { resourceType: 'Observation', readonly: true }],
    };
    expect(fieldText(policy, 'resource')).toMatch(/Patient.*Observation/);
  });
});
