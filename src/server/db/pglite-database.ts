// The embedded engine: PostgreSQL compiled to WebAssembly, one connection per process, run in a
// worker thread (pglite-worker.ts) so that a slow query never blocks the server's own thread:
// requests, the health check and live updates go on while it runs.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Database, QueryResult, Queryable, SqlValue } from './database';
import type { MaintenanceReport, PGliteWorkerData, WorkerMessage, WorkerRequest } from './pglite-protocol';
import { deserializeError } from './pglite-protocol';
import { currentRequestWait } from '../request-wait';
import type { RequestWait } from '../request-wait';

/** The worker's bundle, built from pglite-worker.ts by scripts/build.mjs (relative to the repository). */
export const PGLITE_WORKER_BUNDLE = 'dist/server/pglite-worker.mjs';

export interface PGliteOptions {
  /** Directory for the data files; omitted means in memory. */
  dataDir?: string;
  /** A tarball made by `dump()` to start from (tests use a migrated template). */
  loadDataDir?: Blob;
  /** Runs once the database is closed (e.g. to release the data directory's lock). */
  afterClose?: () => void;
  /** How often the worker ANALYZEs/VACUUMs changed tables when idle (ms); 0 turns it off. Default 10 s. */
  maintenanceIntervalMs?: number;
}

type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  /** performance.now() when it was sent to the worker. */
  sentAt: number;
  /**
   * performance.now() when everything sent before it had been answered: the worker takes requests
   * in the order sent, so from then on it ran rather than waited.
   */
  startedAt?: number;
  /** The API request it was sent for, charged with its wait (request-wait.ts). */
  requestWait?: RequestWait;
}

export class PGliteDatabase implements Database {
  readonly engine = 'pglite' as const;
  private nextId = 1;
  private nextTx = 1;
  /** Transactions begun and not yet ended: the worker is theirs until they end. */
  private openTransactions = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  /** Set once the worker is gone: every later call fails with it. */
  private failure?: Error;
  private closing?: Promise<void>;

  constructor(
    private readonly worker: Worker,
    private readonly afterClose?: () => void,
  ) {
    worker.on('message', (message: WorkerMessage) => this.onMessage(message));
    worker.on('error', (err) => this.stop(new Error(`The PGlite worker failed: ${err.message}`)));
    worker.on('exit', (code) => this.stop(new Error(`The PGlite worker stopped (exit code ${code})`)));
    // An idle database must not keep the process alive; one with requests in flight must.
    worker.unref();
  }

  private onMessage(message: WorkerMessage): void {
    if (message.type === 'notify') {
      this.listeners.get(message.channel)?.forEach((listener) => listener(message.payload));
      return;
    }
    if (message.type !== 'result') return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    const now = performance.now();
    pending.requestWait?.waited(pending.startedAt === undefined ? 0 : pending.startedAt - pending.sentAt);
    for (const next of this.pending.values()) {
      next.startedAt ??= now;
      break;
    }
    if (this.pending.size === 0) this.worker.unref();
    if (message.error) {
      pending.reject(deserializeError(message.error));
    } else {
      pending.resolve(message.value);
    }
  }

  private stop(err: Error): void {
    this.failure ??= err;
    for (const pending of this.pending.values()) pending.reject(this.failure);
    this.pending.clear();
  }

  private call<T>(request: Request, requestWait?: RequestWait): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const sentAt = performance.now();
      this.pending.set(id, {
        resolve: resolve as (value: unknown) => void,
        reject,
        sentAt,
        startedAt: this.pending.size === 0 ? sentAt : undefined,
        requestWait,
      });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ ...request, id } as WorkerRequest);
    });
  }

  private run<Row>(
    sql: string,
    params: readonly SqlValue[] | undefined,
    tx?: number,
  ): Promise<QueryResult<Row>> {
    return this.call<QueryResult<Row>>(
      { op: 'query', sql, params: params ? [...params] : [], tx },
      currentRequestWait(),
    );
  }

  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>> {
    try {
      // Outside a transaction: where an API request may still be refused (request-wait.ts).
      currentRequestWait()?.admit(this.queueWaitMs(), sql);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    return this.run<Row>(sql, params);
  }

  // PGlite is a single connection; its transaction() holds a mutex, so transactions (and plain
  // queries, which wait for that mutex) are serialized rather than interleaved.
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const requestWait = currentRequestWait();
    // Decided before BEGIN: once begun, a transaction runs to its end (request-wait.ts).
    requestWait?.admit(this.queueWaitMs());
    const tx = this.nextTx++;
    await this.call({ op: 'begin', tx }, requestWait);
    this.openTransactions++;
    try {
      let result: T;
      try {
        result = await fn({
          query: <Row>(sql: string, params?: readonly SqlValue[]) => this.run<Row>(sql, params, tx),
        });
      } catch (err) {
        // The worker may be gone already; the caller's error is the one that matters.
        await this.call({ op: 'end', tx, commit: false }).catch(() => undefined);
        throw err;
      }
      await this.call({ op: 'end', tx, commit: true });
      return result;
    } finally {
      this.openTransactions--;
    }
  }

  // PGlite delivers NOTIFY of its own (single) connection after commit, as PostgreSQL does.
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.call({ op: 'listen', channel });
    }
    set.add(onNotify);
    return async () => {
      const current = this.listeners.get(channel);
      if (!current?.delete(onNotify) || current.size > 0) return;
      this.listeners.delete(channel);
      if (!this.failure) await this.call({ op: 'unlisten', channel });
    };
  }

  /** ANALYZE/VACUUM what changed enough since the last time (the worker also does it when idle). */
  maintain(): Promise<MaintenanceReport> {
    return this.call<MaintenanceReport>({ op: 'maintain' });
  }

  /**
   * How long the oldest unanswered request to the worker has waited, in ms (0 when none waits).
   * The worker answers one query at a time in the order sent, so this is about how long a query
   * sent now would queue: the server's load shedding reads it (load-shedding.ts).
   */
  queueWaitMs(): number {
    // A Map iterates in insertion order: the first entry is the oldest.
    for (const pending of this.pending.values()) return performance.now() - pending.sentAt;
    return 0;
  }

  /**
   * The worker is alive: busy with a request or inside a transaction (not waited for: a query would
   * wait for the whole transaction, whose statements leave the worker idle while the server works
   * between them), or idle and answering `SELECT 1`.
   */
  async healthy(): Promise<boolean> {
    if (this.failure) return false;
    if (this.pending.size > 0 || this.openTransactions > 0) return true;
    await this.query('SELECT 1');
    return true;
  }

  async close(): Promise<void> {
    this.closing ??= (async () => {
      if (!this.failure) {
        await this.call({ op: 'close' });
        this.stop(new Error('The database is closed'));
        await this.worker.terminate();
      }
      this.afterClose?.();
    })();
    return this.closing;
  }

  /** A tarball of the whole database, for `loadDataDir` (test templates). */
  async dump(): Promise<Blob> {
    return new Blob([await this.call<ArrayBuffer>({ op: 'dump' })]);
  }
}

function workerBundle(): string {
  const file = path.resolve(PGLITE_WORKER_BUNDLE);
  if (!fs.existsSync(file)) {
    throw new Error(`${PGLITE_WORKER_BUNDLE} is missing: run node scripts/build.mjs (npm start does)`);
  }
  return file;
}

export async function openPGlite(options: PGliteOptions = {}): Promise<PGliteDatabase> {
  const loadDataDir = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined;
  const workerData: PGliteWorkerData = {
    dataDir: options.dataDir,
    loadDataDir,
    maintenanceIntervalMs: options.maintenanceIntervalMs ?? 10_000,
  };
  const worker = new Worker(workerBundle(), { workerData, transferList: loadDataDir ? [loadDataDir] : [] });
  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: WorkerMessage): void => {
      if (message.type === 'ready') {
        cleanup();
        resolve();
      } else if (message.type === 'failed') {
        cleanup();
        reject(new Error(`PGlite did not open: ${message.error.message}`));
      }
    };
    const onExit = (code: number): void => {
      cleanup();
      reject(new Error(`The PGlite worker stopped while opening (exit code ${code})`));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const cleanup = (): void => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      worker.off('error', onError);
    };
    worker.on('message', onMessage);
    worker.on('exit', onExit);
    worker.on('error', onError);
  }).catch(async (err: unknown) => {
    await worker.terminate();
    throw err;
  });
  return new PGliteDatabase(worker, options.afterClose);
}
