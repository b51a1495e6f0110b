// Passwords: scrypt hashes with their parameters, constant-time verification, the
// 8-72 byte rule and the common-password list.
import {
  checkNewPassword,
  getCommonPasswords,
  hashPassword,
  verifyPassword,
} from '../../../src/server/auth/passwords';

describe('password hashing', () => {
  test('a hash carries algorithm, parameters, salt and key; each hash is salted differently', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct');
  });

  test('verification accepts the password only, and refuses malformed hashes', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
    for (const bad of [undefined, '', 'bcrypt$x', 'scrypt$0$8$1$AAAA$BBBB', hash.replace(/.$/, '')]) {
      expect(await verifyPassword('correct horse battery', bad)).toBe(false);
    }
  });

  test('Unicode is normalised: composed and decomposed forms are the same password', async () => {
    const hash = await hashPassword('caf\u00e9-au-lait');
    expect(await verifyPassword('cafe\u0301-au-lait', hash)).toBe(true);
  });
});

describe('new password rules', () => {
  test('8 to 72 bytes (bytes, not characters)', () => {
    expect(checkNewPassword('seven77')).toBe('Password must be at least 8 characters');
    expect(checkNewPassword('lantern-orchid-77')).toBeUndefined();
    expect(checkNewPassword('q'.repeat(72))).toBeUndefined();
    expect(checkNewPassword('q'.repeat(73))).toBe('Password must be at most 72 bytes');
    // 37 two-byte characters: 37 characters but 74 bytes.
    expect(checkNewPassword('é'.repeat(37))).toBe('Password must be at most 72 bytes');
  });

  test('at least 10,000 common passwords are refused, whatever their case', () => {
    expect(getCommonPasswords().size).toBeGreaterThanOrEqual(10_000);
    for (const common of ['password', 'Password1', 'QWERTYUIOP', 'iloveyou', '12345678', 'baseball']) {
      expect(checkNewPassword(common)).toBe('Password is too common: choose one that is harder to guess');
    }
  });
});
