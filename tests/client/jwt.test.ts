import { checkToken, isJwt, parseJwtPayload, tokenExpiresAt } from '../../src/client/jwt';
import { base64Url, makeJwt } from './support/tokens';

const now = Date.UTC(2026, 0, 1);
const exp = now / 1000 + 60;

describe('SPEC §5 client token rules', () => {
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

  test('"Token expired" at and after exp, fine before', () => {
    const token = makeJwt({ exp, cid: 'app' });
    expect(() => checkToken(token, { clientId: 'app', now: exp * 1000 - 1 })).not.toThrow();
    expect(() => checkToken(token, { clientId: 'app', now: exp * 1000 })).toThrow('Token expired');
    expect(() => checkToken(token, { now: exp * 1000 + 1 })).toThrow('Token expired');
  });

  test('"Token was not issued for this audience" when cid or client_id differs from the clientId', () => {
    expect(() => checkToken(makeJwt({ exp, cid: 'other' }), { clientId: 'app', now })).toThrow(
      'Token was not issued for this audience',
    );
    expect(() => checkToken(makeJwt({ exp, client_id: 'other' }), { clientId: 'app', now })).toThrow(
      'Token was not issued for this audience',
    );
    expect(() => checkToken(makeJwt({ exp }), { clientId: 'app', now })).toThrow(
      'Token was not issued for this audience',
    );
  });

  test('audience matches via cid or client_id; no clientId set → no audience check', () => {
    expect(() => checkToken(makeJwt({ exp, cid: 'app' }), { clientId: 'app', now })).not.toThrow();
    expect(() => checkToken(makeJwt({ exp, client_id: 'app' }), { clientId: 'app', now })).not.toThrow();
    expect(() => checkToken(makeJwt({ exp, cid: 'other' }), { now })).not.toThrow();
  });

  test('tokens that do not look like a JWT are not checked', () => {
    expect(() => checkToken('opaque', { clientId: 'app', now })).not.toThrow();
  });

  test('a three-part token that cannot be read is refused', () => {
    expect(() => checkToken('a.!!!.c', { now })).toThrow('Invalid JWT');
  });
});
