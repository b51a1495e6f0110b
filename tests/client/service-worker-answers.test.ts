// The service worker's rules for keeping GraphQL answers offline: only documents that
// read are kept, each under a key naming the profile of the bearer token, so one person's key never
// matches another person's answers.
import {
  answerCacheKey,
  answerOwner,
  isReadOnlyGraphqlBody,
  operationKinds,
} from '../../src/app/sw/graphql-answers';

function jwt(payload: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none' })}.${part(payload)}.sig`;
}

describe('service worker GraphQL answers', () => {
  test('operationKinds reads the top-level definitions, not fields or strings', () => {
    expect(operationKinds('query A { mutation: Patient(id: "x") { id } }')).toEqual(['query']);
    expect(operationKinds('{ PatientList { id } }')).toEqual(['query']);
    expect(operationKinds('fragment F on Patient { id } query Q { Patient(id: "1") { ...F } }')).toEqual([
      'fragment',
      'query',
    ]);
    expect(operationKinds('mutation M { PatientCreate(res: {}) { id } }')).toEqual(['mutation']);
    expect(operationKinds('# mutation {\nquery Q { a(s: "}") { b } }')).toEqual(['query']);
  });

  test('only bodies whose every operation is a query are kept', () => {
    const body = (query: unknown) => JSON.stringify({ query, variables: {} });
    expect(isReadOnlyGraphqlBody(body('query Labs { DiagnosticReportList { id } }'))).toBe(true);
    expect(isReadOnlyGraphqlBody(body('mutation Send { CommunicationCreate(res: {}) { id } }'))).toBe(false);
    expect(isReadOnlyGraphqlBody(body('subscription S { x }'))).toBe(false);
    expect(isReadOnlyGraphqlBody(body('query A { a } mutation B { b }'))).toBe(false);
    expect(isReadOnlyGraphqlBody(body('fragment F on P { id }'))).toBe(false);
    expect(isReadOnlyGraphqlBody(body(42))).toBe(false);
    expect(isReadOnlyGraphqlBody('not json')).toBe(false);
    expect(isReadOnlyGraphqlBody('null')).toBe(false);
  });

  test('the owner is the profile of the bearer JWT (else its subject); none without a readable token', () => {
    expect(answerOwner(`Bearer ${jwt({ sub: 'u1', profile: 'Patient/maria' })}`)).toBe('Patient/maria');
    expect(answerOwner(`bearer ${jwt({ sub: 'u1' })}`)).toBe('u1');
    expect(answerOwner(`Bearer ${jwt({})}`)).toBeUndefined();
    expect(answerOwner('Bearer opaque-token')).toBeUndefined();
    expect(answerOwner('Basic abc')).toBeUndefined();
    expect(answerOwner(null)).toBeUndefined();
    expect(answerOwner('Bearer a.%%%.c')).toBeUndefined();
  });

  test('keys name the owner and differ by owner, URL and body', async () => {
    const scope = 'http://localhost:3000/';
    const url = 'http://localhost:8103/fhir/R4/$graphql';
    const maria = await answerCacheKey(scope, url, 'Patient/maria', '{"query":"{a}"}');
    expect(maria.startsWith(`${scope}__graphql-answers/${encodeURIComponent('Patient/maria')}/`)).toBe(true);
    expect(await answerCacheKey(scope, url, 'Patient/maria', '{"query":"{a}"}')).toBe(maria);
    expect(await answerCacheKey(scope, url, 'Practitioner/chen', '{"query":"{a}"}')).not.toBe(maria);
    expect(await answerCacheKey(scope, url, 'Patient/maria', '{"query":"{b}"}')).not.toBe(maria);
    expect(await answerCacheKey(scope, `${url}x`, 'Patient/maria', '{"query":"{a}"}')).not.toBe(maria);
  });
});
