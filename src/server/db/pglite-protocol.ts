// The messages between the server's thread and the PGlite worker (pglite-worker.ts). Every request
// carries an id; the worker answers each with one `result` message of the same id.
import type { SqlValue } from './database';

export interface PGliteWorkerData {
  dataDir?: string;
  /** A `dumpDataDir` tarball to start from (tests use a migrated template). */
  loadDataDir?: ArrayBuffer;
  /** How often the worker looks for tables to ANALYZE/VACUUM when idle; 0 turns it off. */
  maintenanceIntervalMs: number;
}

export type WorkerRequest =
  | { op: 'query'; id: number; sql: string; params: SqlValue[]; tx?: number }
  | { op: 'begin'; id: number; tx: number }
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'listen'; id: number; channel: string }
  | { op: 'unlisten'; id: number; channel: string }
  | { op: 'maintain'; id: number }
  | { op: 'dump'; id: number }
  | { op: 'close'; id: number };

/** A PostgreSQL error's fields, copied so the server's thread can rebuild an Error with them. */
export interface SerializedError {
  message: string;
  name?: string;
  code?: string;
  detail?: string;
  hint?: string;
  constraint?: string;
  table?: string;
  column?: string;
  severity?: string;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'failed'; error: SerializedError }
  | { type: 'result'; id: number; value?: unknown; error?: SerializedError }
  | { type: 'notify'; channel: string; payload: string };

/** What one maintenance pass did (also the answer to `maintain`). */
export interface MaintenanceReport {
  analyzed: string[];
  vacuumed: string[];
}

const ERROR_FIELDS = ['code', 'detail', 'hint', 'constraint', 'table', 'column', 'severity'] as const;

export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) {
    return { message: String(err) };
  }
  const out: SerializedError = { message: err.message, name: err.name };
  const fields = err as Error & Partial<Record<(typeof ERROR_FIELDS)[number], unknown>>;
  for (const field of ERROR_FIELDS) {
    const value = fields[field];
    if (typeof value === 'string') out[field] = value;
  }
  return out;
}

export function deserializeError(error: SerializedError): Error {
  const err = new Error(error.message);
  if (error.name) err.name = error.name;
  for (const field of ERROR_FIELDS) {
    if (error[field] !== undefined) Object.assign(err, { [field]: error[field] });
  }
  return err;
}
