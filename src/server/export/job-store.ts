// The export_job table (migration 80): every state change of a bulk export job is one SQL
// statement, guarded by the job's status and, for the runner's writes, by its lease, so a
// cancelled job or one taken over by another instance is never written by a stale runner.
import type { Queryable, SqlValue } from '../db';
import type { RepositoryContext } from '../repo';

export type ExportLevel = 'system' | 'patient' | 'group' | 'type';
export type ExportStatus = 'accepted' | 'in-progress' | 'completed' | 'error' | 'cancelled';

/** One NDJSON file of the export, stored as a Binary. */
export interface ExportFile {
  type: string;
  binaryId: string;
  count: number;
}

export interface NewExportJob {
  id: string;
  owner: string;
  context: RepositoryContext;
  request: string;
  level: ExportLevel;
  patients: string[] | undefined;
  types: string[];
  since: string | undefined;
}

export interface ExportJob extends NewExportJob {
  transactionTime: string;
  status: ExportStatus;
  typeIndex: number;
  cursor: string | undefined;
  exported: number;
  output: ExportFile[];
  error: string | undefined;
  attempts: number;
}

interface JobRow {
  id: string;
  owner: string;
  context: RepositoryContext | string;
  request: string;
  level: ExportLevel;
  patients: string[] | null;
  types: string[];
  since: Date | string | null;
  transaction_time: Date | string;
  status: ExportStatus;
  type_index: number;
  cursor: string | null;
  exported: string | number;
  output: ExportFile[] | string;
  error: string | null;
  attempts: number;
}

function parseJson<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

function instant(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function toJob(row: JobRow): ExportJob {
  return {
    id: row.id,
    owner: row.owner,
    context: parseJson(row.context),
    request: row.request,
    level: row.level,
    patients: row.patients ?? undefined,
    types: row.types,
    since: row.since === null ? undefined : instant(row.since),
    transactionTime: instant(row.transaction_time),
    status: row.status,
    typeIndex: row.type_index,
    cursor: row.cursor ?? undefined,
    exported: Number(row.exported),
    output: parseJson(row.output),
    error: row.error ?? undefined,
    attempts: row.attempts,
  };
}

const COLUMNS = `id, owner, context, request, level, patients, types, since, transaction_time, status,
  type_index, cursor, exported, output, error, attempts`;

/** Stores a new job as accepted; its transactionTime is the database's clock at kick-off. */
export async function insertJob(q: Queryable, job: NewExportJob): Promise<ExportJob> {
  const { rows } = await q.query<JobRow>(
    `INSERT INTO export_job (id, owner, context, request, level, patients, types, since, transaction_time, status)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8, now(), 'accepted') RETURNING ${COLUMNS}`,
    [
      job.id,
      job.owner,
      JSON.stringify(job.context),
      job.request,
      job.level,
      job.patients ?? null,
      job.types,
      job.since ?? null,
    ],
  );
  return toJob(rows[0]);
}

export async function findJob(q: Queryable, id: string): Promise<ExportJob | undefined> {
  const { rows } = await q.query<JobRow>(`SELECT ${COLUMNS} FROM export_job WHERE id::text = $1`, [id]);
  return rows[0] ? toJob(rows[0]) : undefined;
}

/**
 * Takes the oldest runnable job whose lease is free or ran out (its runner stopped or crashed), for
 * `leaseSeconds`, counting the attempt. Undefined when there is none.
 */
export async function claimJob(
  q: Queryable,
  runner: string,
  leaseSeconds: number,
): Promise<ExportJob | undefined> {
  const { rows } = await q.query<JobRow>(
    `UPDATE export_job SET status = 'in-progress', lease_owner = $1,
       lease_until = now() + make_interval(secs => $2), attempts = attempts + 1, updated = now()
     WHERE id = (
       SELECT id FROM export_job
       WHERE status IN ('accepted', 'in-progress') AND (lease_until IS NULL OR lease_until < now())
       ORDER BY created LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING ${COLUMNS}`,
    [runner, leaseSeconds],
  );
  return rows[0] ? toJob(rows[0]) : undefined;
}

/**
 * Applies `set` (SQL assignments whose parameters are numbered from $3) to a job the runner still
 * holds: false when it is no longer the runner's (cancelled, taken over after its lease ran out).
 */
async function updateHeldJob(
  q: Queryable,
  id: string,
  runner: string,
  set: string,
  params: SqlValue[],
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE export_job SET ${set}, updated = now() WHERE id = $1 AND lease_owner = $2 AND status = 'in-progress'`,
    [id, runner, ...params],
  );
  return rowCount > 0;
}

/** Extends the runner's lease. */
export function renewLease(q: Queryable, id: string, runner: string, leaseSeconds: number): Promise<boolean> {
  return updateHeldJob(q, id, runner, 'lease_until = now() + make_interval(secs => $3)', [leaseSeconds]);
}

/** Records one stored file and where the next one starts. */
export function checkpointFile(
  q: Queryable,
  id: string,
  runner: string,
  file: ExportFile,
  typeIndex: number,
  cursor: string,
): Promise<boolean> {
  return updateHeldJob(
    q,
    id,
    runner,
    'output = output || $3::jsonb, exported = exported + $4, type_index = $5, cursor = $6',
    [JSON.stringify([file]), file.count, typeIndex, cursor],
  );
}

/** Moves the checkpoint to the start of type `typeIndex`. */
export function checkpointType(
  q: Queryable,
  id: string,
  runner: string,
  typeIndex: number,
): Promise<boolean> {
  return updateHeldJob(q, id, runner, 'type_index = $3, cursor = NULL', [typeIndex]);
}

/** Ends the runner's work on a job: completed, or error with a message. */
export function finishJob(
  q: Queryable,
  id: string,
  runner: string,
  outcome: { status: 'completed' } | { status: 'error'; error: string },
): Promise<boolean> {
  return updateHeldJob(q, id, runner, 'status = $3, error = $4, lease_owner = NULL, lease_until = NULL', [
    outcome.status,
    outcome.status === 'error' ? outcome.error : null,
  ]);
}

/** A job interrupted too often (or that cannot be resumed) fails instead of looping for ever. */
export async function failJob(q: Queryable, id: string, error: string): Promise<void> {
  await q.query(
    `UPDATE export_job SET status = 'error', error = $2, lease_owner = NULL, lease_until = NULL, updated = now()
     WHERE id = $1 AND status IN ('accepted', 'in-progress')`,
    [id, error],
  );
}

/** Gives the lease back at a clean stop, so the next start resumes the job at once. */
export async function releaseLease(q: Queryable, id: string, runner: string): Promise<void> {
  await q.query(
    `UPDATE export_job SET lease_owner = NULL, lease_until = NULL, attempts = greatest(attempts - 1, 0), updated = now()
     WHERE id = $1 AND lease_owner = $2 AND status = 'in-progress'`,
    [id, runner],
  );
}

/** Cancels (or, once completed, deletes) a job; returns its files to remove, undefined when already gone. */
export async function cancelJob(q: Queryable, id: string): Promise<ExportFile[] | undefined> {
  const { rows } = await q.query<{ output: ExportFile[] | string }>(
    `UPDATE export_job SET status = 'cancelled', lease_owner = NULL, lease_until = NULL, updated = now()
     WHERE id::text = $1 AND status <> 'cancelled' RETURNING output`,
    [id],
  );
  return rows[0] ? parseJson(rows[0].output) : undefined;
}

/**
 * Deletes finished jobs (completed, failed, cancelled) last changed more than `hours` ago; returns
 * the files of the completed and failed ones, still to remove (a cancel removed its own already).
 */
export async function deleteExpiredJobs(q: Queryable, hours: number): Promise<ExportFile[]> {
  const { rows } = await q.query<{ output: ExportFile[] | string }>(
    `DELETE FROM export_job WHERE status IN ('completed', 'error', 'cancelled')
       AND updated < now() - make_interval(hours => $1)
     RETURNING CASE WHEN status = 'cancelled' THEN '[]'::jsonb ELSE output END AS output`,
    [hours],
  );
  return rows.flatMap((row) => parseJson(row.output));
}
