import { checkToken } from '../../src/client/jwt';
import { makeJwt } from './support/tokens';

const now = Date.UTC(2026, 0, 1);
const exp = now / 1000 + 60;

describe('SPEC §5 client token rules', () => {
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
