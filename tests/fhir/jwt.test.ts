import { isJwt, parseJwtPayload, tokenExpiresAt } from '../../src/fhir/jwt';
import { base64Url, makeJwt } from '../client/support/tokens';

const exp = Date.UTC(2026, 0, 1) / 1000 + 60;

describe('SPEC §5 reading a JWT (decode only, shared by client, agent and server)', () => {
  test('isJwt: three dot-separated parts', () => {
    expect(isJwt('a.b.c')).toBe(true);
    expect(isJwt('opaque-token')).toBe(false);
    expect(isJwt('a.b')).toBe(false);
    expect(isJwt('a.b.c.d')).toBe(false);
  });

  test('parseJwtPayload decodes base64url UTF-8 claims without verifying', () => {
    const token = makeJwt({ sub: 'ü-user', cid: 'app', exp });
    expect(parseJwtPayload(token)).toEqual({ sub: 'ü-user', cid: 'app', exp });
  });

  test.each([
    ['two parts', 'a.b'],
    ['payload not base64 JSON', 'a.!!!.c'],
    ['payload JSON but not an object', `a.${base64Url('42')}.c`],
    ['payload an array', `a.${base64Url('[1]')}.c`],
  ])('parseJwtPayload refuses %s with "Invalid JWT"', (_name, token) => {
    expect(() => parseJwtPayload(token)).toThrow('Invalid JWT');
  });

  test('tokenExpiresAt: exp in ms; undefined for opaque tokens and tokens without exp', () => {
    expect(tokenExpiresAt(makeJwt({ exp }))).toBe(exp * 1000);
    expect(tokenExpiresAt(makeJwt({ sub: 'x' }))).toBeUndefined();
    expect(tokenExpiresAt('opaque')).toBeUndefined();
  });
});
