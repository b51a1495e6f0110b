// The idempotency_key table: claim a key for a request, record its response, or give it back.
import type { Database } from '../db';

/** A response as it is replayed: status, the headers that describe the result, and the body text. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'different-request' }
  | { kind: 'in-progress' };

/**
 * A first request that never finished (the process died mid-request) stops blocking its key after
 * this long; a real request that takes longer is answered 409 to a retry meanwhile.
 */
export const IN_PROGRESS_TIMEOUT_SECONDS = 300;

interface Row {
  request_hash: string;
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
}

/**
 * Claims `key` for this request in one statement (so two concurrent requests cannot both win):
 * a new key, an expired one, or one whose first request was abandoned is taken over.
 */
export async function claimKey(
  db: Database,
  owner: string,
  key: string,
  requestHash: string,
  windowSeconds: number,
): Promise<Claim> {
  const claimed = await db.query(
    `INSERT INTO idempotency_key (owner, key, request_hash) VALUES ($1, $2, $3)
     ON CONFLICT (owner, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, status = NULL, headers = NULL, body = NULL, created_at = now()
       WHERE idempotency_key.created_at < now() - make_interval(secs => $4::int)
          OR (idempotency_key.status IS NULL
              AND idempotency_key.created_at < now() - make_interval(secs => $5::int))
     RETURNING 1`,
    [owner, key, requestHash, windowSeconds, IN_PROGRESS_TIMEOUT_SECONDS],
  );
  if (claimed.rows.length > 0) {
    return { kind: 'claimed' };
  }
  const { rows } = await db.query<Row>(
    'SELECT request_hash, status, headers, body FROM idempotency_key WHERE owner = $1 AND key = $2',
    [owner, key],
  );
  const row = rows[0];
  if (!row) {
    // Released between the two statements: the first request failed, so this one may go ahead.
    return claimKey(db, owner, key, requestHash, windowSeconds);
  }
  if (row.request_hash !== requestHash) {
    return { kind: 'different-request' };
  }
  if (row.status === null) {
    return { kind: 'in-progress' };
  }
  return {
    kind: 'replay',
    response: { status: row.status, headers: row.headers ?? {}, body: row.body ?? '' },
  };
}

export async function recordResponse(
  db: Database,
  owner: string,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await db.query(
    'UPDATE idempotency_key SET status = $3, headers = $4::jsonb, body = $5 WHERE owner = $1 AND key = $2',
    [owner, key, response.status, JSON.stringify(response.headers), response.body],
  );
}

/** Forgets a claim whose request failed in a way a retry may fix (5xx, 429, aborted). */
export async function releaseKey(db: Database, owner: string, key: string): Promise<void> {
  await db.query('DELETE FROM idempotency_key WHERE owner = $1 AND key = $2 AND status IS NULL', [
    owner,
    key,
  ]);
}

/** Drops keys older than the window; called now and then, not on every request. */
export async function deleteExpiredKeys(db: Database, windowSeconds: number): Promise<void> {
  await db.query('DELETE FROM idempotency_key WHERE created_at < now() - make_interval(secs => $1::int)', [
    windowSeconds,
  ]);
}
