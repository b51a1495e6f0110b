// Replay protection for client-signed assertions (RFC 7523 §3 item 7): each `jti` a client uses is
// remembered in the database (table used_assertion, oauth/migrations.ts) until the assertion could
// no longer be accepted anyway, so a captured assertion cannot be presented again within its
// validity window, on this instance or any other.
import type { Queryable } from '../db';

/**
 * Records that `issuer` used `jti`; false when it was used before and is still remembered. One
 * statement, so two requests racing with the same assertion cannot both see it as new.
 */
export async function recordAssertionUse(
  db: Queryable,
  issuer: string,
  jti: string,
  expiresAt: Date,
  now: Date = new Date(),
): Promise<boolean> {
  const inserted = await db.query(
    `INSERT INTO used_assertion AS u (issuer, jti, expires_at) VALUES ($1, $2, $3)
     ON CONFLICT (issuer, jti) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE u.expires_at <= $4
     RETURNING 1`,
    [issuer, jti, expiresAt, now],
  );
  // Forgotten once expired: an assertion past its expiry is refused before it gets here.
  await db.query('DELETE FROM used_assertion WHERE expires_at <= $1', [now]);
  return inserted.rows.length === 1;
}
