// The key-value store's SQL and its rules: small text values per
// owner, so a user's preferences can live on the server without becoming a general file store. The
// rules are Medplum's key-value API's (packages/server/src/keyvalue/store.ts), so an app that works
// here works there: the same keys, values and limits pass, and the same requests fail with the same
// status and text ('Invalid key', 'Invalid value type', 'Value too long', 'Max items exceeded').
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { Database } from '../db';

/** A key is 1 to 255 characters. */
export const MAX_KEY_LENGTH = 255;
/** A value is at most 8192 characters (UTF-16 code units, as JavaScript counts a string's length). */
export const MAX_VALUE_LENGTH = 8192;
/** Keys one owner may hold: a new key beyond this is refused, replacing a value is not. */
export const MAX_KEYS_PER_OWNER = 10;

/** ASCII letters, digits, '-' and '_' only: no dots, slashes, spaces, colons or other characters. */
const KEY_PATTERN = /^[A-Za-z0-9_-]+$/;

export function isValidKey(key: string): boolean {
  return key.length > 0 && key.length <= MAX_KEY_LENGTH && KEY_PATTERN.test(key);
}

export function checkKey(key: string): void {
  if (!isValidKey(key)) {
    throw new OperationOutcomeError(badRequest('Invalid key'));
  }
}

/** The stored value: a string (a text/plain body), at most MAX_VALUE_LENGTH characters. */
export function checkValue(value: unknown): asserts value is string {
  if (typeof value !== 'string') {
    throw new OperationOutcomeError(badRequest('Invalid value type'));
  }
  if (value.length > MAX_VALUE_LENGTH) {
    throw new OperationOutcomeError(badRequest('Value too long'));
  }
}

/** The value stored under `key`, or undefined when the key has none (an unset key is a normal answer). */
export async function getValue(db: Database, owner: string, key: string): Promise<string | undefined> {
  const { rows } = await db.query<{ value: string }>(
    'SELECT value FROM key_value WHERE owner = $1 AND key = $2',
    [owner, key],
  );
  return rows[0]?.value;
}

export async function setValue(db: Database, owner: string, key: string, value: string): Promise<void> {
  await db.transaction(async (tx) => {
    // One writer per owner at a time, so the key count cannot be raced past the limit.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`key-value:${owner}`]);
    const updated = await tx.query(
      'UPDATE key_value SET value = $3, updated_at = now() WHERE owner = $1 AND key = $2',
      [owner, key, value],
    );
    if (updated.rowCount > 0) {
      return;
    }
    const { rows } = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM key_value WHERE owner = $1',
      [owner],
    );
    if (rows[0].n >= MAX_KEYS_PER_OWNER) {
      throw new OperationOutcomeError(badRequest('Max items exceeded'));
    }
    await tx.query('INSERT INTO key_value (owner, key, value) VALUES ($1, $2, $3)', [owner, key, value]);
  });
}

/** Deleting a key that has no value succeeds (204), as in Medplum: the key is gone either way. */
export async function deleteValue(db: Database, owner: string, key: string): Promise<void> {
  await db.query('DELETE FROM key_value WHERE owner = $1 AND key = $2', [owner, key]);
}
