// The key-value store's SQL and its limits (issue #5): small text values per owner, so a user's
// preferences can live on the server without becoming a general file store.
import { badRequest, notFound, OperationOutcomeError, payloadTooLarge } from '../../fhir';
import type { Database } from '../db';

/** Keys are short names: at most 100 characters (the router's longest URL parameter), no control characters and no '/'. */
export const MAX_KEY_LENGTH = 100;
/** A value is at most 64 KiB of UTF-8. */
export const MAX_VALUE_BYTES = 64 * 1024;
/** Keys one owner may hold: a new key beyond this is refused. */
export const MAX_KEYS_PER_OWNER = 1000;

// eslint-disable-next-line no-control-regex
const KEY_PATTERN = /^[^\u0000-\u001f\u007f/]+$/;

export function checkKey(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) {
    throw new OperationOutcomeError(
      badRequest(`Key must be 1 to ${MAX_KEY_LENGTH} characters, without '/' or control characters`, 'key'),
    );
  }
}

export function checkValue(value: string): void {
  if (Buffer.byteLength(value, 'utf8') > MAX_VALUE_BYTES) {
    throw new OperationOutcomeError(payloadTooLarge(`Value must be at most ${MAX_VALUE_BYTES} bytes`));
  }
}

export async function getValue(db: Database, owner: string, key: string): Promise<string> {
  const { rows } = await db.query<{ value: string }>(
    'SELECT value FROM key_value WHERE owner = $1 AND key = $2',
    [owner, key],
  );
  if (rows.length === 0) {
    throw new OperationOutcomeError(notFound);
  }
  return rows[0].value;
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
      throw new OperationOutcomeError(
        payloadTooLarge(`At most ${MAX_KEYS_PER_OWNER} keys per user: delete one first`),
      );
    }
    await tx.query('INSERT INTO key_value (owner, key, value) VALUES ($1, $2, $3)', [owner, key, value]);
  });
}

/** Deleting a key that does not exist is a 404, like reading it. */
export async function deleteValue(db: Database, owner: string, key: string): Promise<void> {
  const { rowCount } = await db.query('DELETE FROM key_value WHERE owner = $1 AND key = $2', [owner, key]);
  if (rowCount === 0) {
    throw new OperationOutcomeError(notFound);
  }
}
