// Depth and cost of an operation, computed on the real schema without running anything.
import { getOperationAST, Kind, parse } from 'graphql';
import type { FragmentDefinitionNode } from 'graphql';
import { checkQueryLimits } from '../../../src/server/graphql/limits';
import { getGraphQLSchema } from '../../../src/server/graphql/schema';

function measure(query: string, variables: Record<string, unknown> = {}, maxCost = 1_000_000) {
  const { schema } = getGraphQLSchema();
  const document = parse(query);
  const operation = getOperationAST(document);
  if (!operation) throw new Error('no operation');
  const fragments = document.definitions.filter(
    (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
  );
  return checkQueryLimits(schema, operation, fragments, variables, { maxDepth: 12, maxCost });
}

describe('issue #6 query depth and cost', () => {
  it('a read costs 1; a search 1 + its page size; nested fields multiply by the page size', () => {
    expect(measure('{ Patient(id: "1") { id } }')).toEqual({ depth: 2, cost: 1 });
    expect(measure('{ PatientList(_count: 10) { id } }').cost).toBe(11);
    expect(measure('{ PatientList { id } }').cost).toBe(21);
    expect(
      measure('{ PatientList(_count: 10) { generalPractitioner { resource { __typename } } } }').cost,
    ).toBe(21);
    expect(
      measure('{ PatientList(_count: 10) { ObservationList(_reference: subject, _count: 5) { id } } }').cost,
    ).toBe(11 + 10 * 6);
  });

  it('reads _count from variables and counts fragments once per use', () => {
    const query = `query ($n: Int) { a: PatientList(_count: $n) { ...P } b: PatientList(_count: $n) { ...P } }
      fragment P on Patient { managingOrganization { resource { __typename } } }`;
    expect(measure(query, { n: 3 })).toEqual({ depth: 3, cost: 2 * (4 + 3) });
  });

  it('ResourceSearch costs 1 + the _count inside its search string (variable or literal), capped at 1000', () => {
    const query =
      'query ($s: String) { ResourceSearch(resourceType: "Observation", search: $s) { total resources } }';
    expect(measure(query, { s: 'status=final&_count=50' }).cost).toBe(51);
    expect(measure(query, { s: '?_count=5000' }).cost).toBe(1001);
    // No _count, or one that is not a number: the default page size, 20.
    expect(measure(query, {}).cost).toBe(21);
    expect(measure(query, { s: '_count=abc' }).cost).toBe(21);
    expect(measure('{ ResourceSearch(resourceType: "Patient", search: "_count=7") { total } }').cost).toBe(8);
    expect(() => measure(query, { s: '_count=200' }, 100)).toThrow(
      /Query too costly: it may load about 201 resources, the limit is 100/,
    );
  });

  it('@skip and @include leave out what will not run', () => {
    const query = `query ($a: Boolean!, $b: Boolean!) {
      a: PatientList(_count: 100) @include(if: $a) { id }
      b: ObservationList(_count: 100) @include(if: $b) { id }
      c: PractitionerList(_count: 100) @skip(if: true) { id }
    }`;
    expect(measure(query, { a: true, b: false }).cost).toBe(101);
    expect(measure(query, { a: false, b: false }).cost).toBe(0);
  });

  it('introspection fields cost nothing and do not count toward depth', () => {
    expect(
      measure('{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }'),
    ).toEqual({
      depth: 0,
      cost: 0,
    });
  });

  it('refuses over the budget with a 400 naming the estimate and the limit', () => {
    expect(() => measure('{ PatientList(_count: 100) { id } }', {}, 100)).toThrow(
      /Query too costly: it may load about 101 resources, the limit is 100/,
    );
  });

  it('refuses fragment spreads that explode combinatorially', () => {
    const levels = Array.from(
      { length: 20 },
      (_, i) =>
        `fragment F${i} on Reference { resource { ... on Organization { partOf { ...F${i + 1} } } } }`,
    );
    const query = `{ Organization(id: "1") { partOf { ...F0 } } } ${levels.join(' ')} fragment F20 on Reference { display }`;
    expect(() => measure(query)).toThrow(/Query too deep|too complex/);
  });
});
