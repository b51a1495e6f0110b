// The bounds a GraphQL document meets before graphql-js parses or validates it (SPEC §7 $graphql;
// the server answers a 400 OperationOutcome naming the bound instead of holding the event loop).
import { GraphQLError } from 'graphql';
import { OperationOutcomeError } from '../../../src/fhir';
import {
  bracketNesting,
  MAX_ALIASES,
  MAX_FIELDS,
  MAX_NESTING,
  MAX_TOKENS,
  parseBounded,
} from '../../../src/server/graphql/document-bounds';

function refusal(query: string): string | undefined {
  try {
    parseBounded(query);
    return undefined;
  } catch (err) {
    if (!(err instanceof OperationOutcomeError)) throw err;
    return err.outcome.issue?.[0]?.details?.text;
  }
}

const nested = (depth: number) => `${'{ a '.repeat(depth)}${'}'.repeat(depth)}`;

describe('GraphQL document bounds', () => {
  test('bracket nesting ignores brackets inside strings, block strings and comments', () => {
    expect(bracketNesting('{ a(b: "{{{{[[[(") { c } }')).toBe(2);
    expect(bracketNesting('{ a(b: """ {{{ \\""" {{ """) }')).toBe(2);
    expect(bracketNesting('# {{{{{\n{ a }')).toBe(1);
    expect(bracketNesting('{ a(b: [[1]]) }')).toBe(4);
  });

  test(`nesting ${MAX_NESTING} is parsed; ${MAX_NESTING + 1} is refused before the parser recurses`, () => {
    expect(refusal(nested(MAX_NESTING))).toBeUndefined();
    expect(refusal(nested(MAX_NESTING + 1))).toBe(
      `Query too deep: brackets nest ${MAX_NESTING + 1} levels, the limit is ${MAX_NESTING}`,
    );
    // Far past the stack graphql-js's recursive parser would need: still a clear 400.
    expect(refusal(nested(5000))).toMatch(/^Query too deep/);
  });

  test(`${MAX_FIELDS} fields pass; one more is refused, fragments counted once as written`, () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`).join(' ');
    expect(refusal(`{ ${fields(MAX_FIELDS)} }`)).toBeUndefined();
    expect(refusal(`{ ${fields(MAX_FIELDS + 1)} }`)).toBe(
      `Query too large: it selects ${MAX_FIELDS + 1} fields, the limit is ${MAX_FIELDS}`,
    );
    const spreads = Array.from({ length: 50 }, () => '...F').join(' ');
    expect(refusal(`{ ${spreads} } fragment F on Q { ${fields(900)} }`)).toBeUndefined();
  });

  test(`${MAX_ALIASES} aliases pass; one more is refused`, () => {
    const aliased = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: PatientList { id }`).join(' ');
    expect(refusal(`{ ${aliased(MAX_ALIASES)} }`)).toBeUndefined();
    expect(refusal(`{ ${aliased(MAX_ALIASES + 1)} }`)).toBe(
      `Query too large: it has ${MAX_ALIASES + 1} aliased fields, the limit is ${MAX_ALIASES}`,
    );
  });

  test(`more than ${MAX_TOKENS} tokens is a syntax error from the parser, not a long parse`, () => {
    const list = Array.from({ length: MAX_TOKENS }, () => '1').join(' ');
    expect(() => parseBounded(`{ a(b: [${list}]) }`)).toThrow(GraphQLError);
    expect(() => parseBounded(`{ a(b: [${list}]) }`)).toThrow(/tokens/);
  });
});
