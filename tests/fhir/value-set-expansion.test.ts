import {
  createTerminology,
  expandValueSet,
  withoutVersion,
  type CodeSystemDef,
  type ValueSetDef,
} from '../../src/fhir/value-set-expansion';

const colors: CodeSystemDef = {
  resourceType: 'CodeSystem',
  url: 'http://example.org/colors',
  content: 'complete',
  concept: [
    { code: 'red', concept: [{ code: 'crimson', concept: [{ code: 'carmine' }] }] },
    { code: 'blue' },
  ],
};

const unlisted: CodeSystemDef = {
  resourceType: 'CodeSystem',
  url: 'http://example.org/unlisted',
  content: 'not-present',
};

function valueSet(name: string, compose: ValueSetDef['compose']): ValueSetDef {
  return { resourceType: 'ValueSet', url: `http://example.org/vs/${name}`, compose };
}

const terminology = createTerminology([
  colors,
  unlisted,
  valueSet('all-colors', { include: [{ system: 'http://example.org/colors|2.0' }] }),
  valueSet('some-colors', {
    include: [{ system: colors.url, concept: [{ code: 'red' }, { code: 'blue' }] }],
  }),
  valueSet('inline', { include: [{ system: 'http://example.org/anything', concept: [{ code: 'a' }] }] }),
  valueSet('union', {
    include: [
      { valueSet: ['http://example.org/vs/inline|1'] },
      { system: colors.url, concept: [{ code: 'blue' }] },
    ],
  }),
  valueSet('no-red', {
    include: [{ system: colors.url }],
    exclude: [{ system: colors.url, concept: [{ code: 'red' }] }],
  }),
  valueSet('filtered', {
    include: [{ system: colors.url, filter: [{ property: 'concept', op: 'is-a', value: 'red' }] }],
  }),
  valueSet('unknown-system', { include: [{ system: 'urn:iso:std:iso:4217' }] }),
  valueSet('incomplete', { include: [{ system: 'http://example.org/unlisted' }] }),
  valueSet('loop', { include: [{ valueSet: ['http://example.org/vs/loop'] }] }),
  valueSet('empty', undefined),
  { resourceType: 'Patient' },
]);

describe('value set expansion for required bindings (build time)', () => {
  test('a whole code system, nested concepts included, version suffixes ignored', () => {
    expect(expandValueSet('http://example.org/vs/all-colors|4.0.1', terminology)).toEqual({
      codes: ['red', 'crimson', 'carmine', 'blue'],
    });
  });

  test('concept lists are honoured, with or without the code system at hand', () => {
    expect(expandValueSet('http://example.org/vs/some-colors', terminology)).toEqual({
      codes: ['red', 'blue'],
    });
    expect(expandValueSet('http://example.org/vs/inline', terminology)).toEqual({ codes: ['a'] });
  });

  test('included value sets are unioned and excludes subtracted', () => {
    expect(expandValueSet('http://example.org/vs/union', terminology)).toEqual({ codes: ['a', 'blue'] });
    expect(expandValueSet('http://example.org/vs/no-red', terminology)).toEqual({
      codes: ['crimson', 'carmine', 'blue'],
    });
  });

  test('what cannot be resolved exactly is skipped with a reason, never guessed', () => {
    const skipped = (url: string): string | undefined => {
      const result = expandValueSet(`http://example.org/vs/${url}`, terminology);
      return 'skipped' in result ? result.skipped : undefined;
    };
    expect(skipped('filtered')).toBe('filter on http://example.org/colors');
    expect(skipped('unknown-system')).toBe('code system urn:iso:std:iso:4217 not available');
    expect(skipped('incomplete')).toBe('code system http://example.org/unlisted content is not-present');
    expect(skipped('loop')).toBe('value set http://example.org/vs/loop includes itself');
    expect(skipped('empty')).toBe('value set http://example.org/vs/empty has no compose.include');
    expect(skipped('missing')).toBe('value set http://example.org/vs/missing not available');
  });

  test('sets larger than the limit are skipped', () => {
    expect(expandValueSet('http://example.org/vs/all-colors', terminology, 3)).toEqual({
      skipped: '4 codes, more than 3',
    });
    expect(expandValueSet('http://example.org/vs/all-colors', terminology, 4)).toHaveProperty('codes');
  });

  test('withoutVersion strips a canonical |version', () => {
    expect(withoutVersion('http://hl7.org/fhir/ValueSet/bundle-type|4.0.1')).toBe(
      'http://hl7.org/fhir/ValueSet/bundle-type',
    );
    expect(withoutVersion('urn:x')).toBe('urn:x');
  });
});
