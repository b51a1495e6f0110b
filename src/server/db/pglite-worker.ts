// The PGlite worker: a thread of its own that owns the embedded database, so a slow query runs
// here while the server's thread keeps answering (PGlite executes each query synchronously in
// WebAssembly). Bundled by scripts/build.mjs into dist/server/pglite-worker.mjs; pglite-database.ts
// is its only client. Transactions are PGlite's own (one at a time, plain queries wait for them);
// a transaction's statements arrive as messages tagged with its number.
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { Transaction } from '@electric-sql/pglite';
import { maintainTables } from './pglite-maintenance';
import type { PGliteWorkerData, WorkerMessage, WorkerRequest } from './pglite-protocol';
import { serializeError } from './pglite-protocol';

type TxRequest = Extract<WorkerRequest, { op: 'query' } | { op: 'end' }>;

/** The statements of one open transaction, in arrival order. */
class TxQueue {
  private readonly items: TxRequest[] = [];
  private waiting?: (item: TxRequest) => void;

  push(item: TxRequest): void {
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting(item);
    } else {
      this.items.push(item);
    }
  }

  next(): Promise<TxRequest> {
    const item = this.items.shift();
    return item ? Promise.resolve(item) : new Promise((resolve) => (this.waiting = resolve));
  }
}

class Rollback extends Error {}

function workerPort(): MessagePort {
  if (!parentPort) throw new Error('pglite-worker runs as a worker thread');
  return parentPort;
}
const port = workerPort();
const data = workerData as PGliteWorkerData;
const send = (message: WorkerMessage, transfer?: ArrayBuffer[]): void => port.postMessage(message, transfer);
const reply = (id: number, value?: unknown, transfer?: ArrayBuffer[]): void =>
  send({ type: 'result', id, value }, transfer);
const fail = (id: number, err: unknown): void => send({ type: 'result', id, error: serializeError(err) });

async function runQuery(target: Pick<PGlite, 'query'> | Transaction, sql: string, params: unknown[]) {
  const result = await target.query(sql, params);
  return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
}

async function main(): Promise<void> {
  const pglite = await PGlite.create({
    dataDir: data.dataDir,
    loadDataDir: data.loadDataDir ? new Blob([data.loadDataDir]) : undefined,
  });
  const transactions = new Map<number, { queue: TxQueue; settled: Promise<void> }>();
  const unlisten = new Map<string, () => Promise<void>>();
  let busy = 0;
  let lastActivity = Date.now();
  let maintaining: Promise<unknown> | undefined;

  const track = async <T>(work: () => Promise<T>): Promise<T> => {
    busy++;
    try {
      return await work();
    } finally {
      busy--;
      lastActivity = Date.now();
    }
  };

  const runTransaction = (id: number, txId: number): void => {
    const queue = new TxQueue();
    let started = false;
    const settled = track(() =>
      pglite.transaction(async (tx) => {
        started = true;
        reply(id);
        for (;;) {
          const request = await queue.next();
          if (request.op === 'end') {
            if (!request.commit) throw new Rollback();
            return;
          }
          await runQuery(tx, request.sql, request.params).then(
            (value) => reply(request.id, value),
            (err: unknown) => fail(request.id, err),
          );
        }
      }),
    ).then(
      () => undefined,
      (err: unknown) => {
        if (err instanceof Rollback) return;
        if (!started) {
          // BEGIN itself failed: whoever waits for the transaction to start hears it.
          transactions.delete(txId);
          fail(id, err);
          return;
        }
        throw err;
      },
    );
    // A failed COMMIT is answered to `end`; this keeps it from counting as unhandled meanwhile.
    settled.catch(() => undefined);
    transactions.set(txId, { queue, settled });
  };

  const handle = async (request: WorkerRequest): Promise<void> => {
    switch (request.op) {
      case 'query': {
        if (request.tx !== undefined) {
          const open = transactions.get(request.tx);
          if (!open) throw new Error(`Transaction ${request.tx} is not open`);
          open.queue.push(request);
          return;
        }
        reply(request.id, await track(() => runQuery(pglite, request.sql, request.params)));
        return;
      }
      case 'begin':
        runTransaction(request.id, request.tx);
        return;
      case 'end': {
        const open = transactions.get(request.tx);
        if (!open) throw new Error(`Transaction ${request.tx} is not open`);
        open.queue.push(request);
        // Answered once PGlite has committed or rolled back (its mutex is free again then).
        try {
          await open.settled;
        } finally {
          transactions.delete(request.tx);
        }
        reply(request.id);
        return;
      }
      case 'listen':
        if (!unlisten.has(request.channel)) {
          const channel = request.channel;
          unlisten.set(
            channel,
            await pglite.listen(channel, (payload) => send({ type: 'notify', channel, payload })),
          );
        }
        reply(request.id);
        return;
      case 'unlisten':
        await unlisten.get(request.channel)?.();
        unlisten.delete(request.channel);
        reply(request.id);
        return;
      case 'maintain':
        reply(request.id, await track(() => maintainTables(pglite)));
        return;
      case 'dump': {
        const tarball = await track(async () => (await pglite.dumpDataDir('none')).arrayBuffer());
        reply(request.id, tarball, [tarball]);
        return;
      }
      case 'close':
        clearInterval(timer);
        await maintaining;
        await pglite.close();
        reply(request.id);
        port.close();
        return;
    }
  };

  port.on('message', (request: WorkerRequest) => {
    handle(request).catch((err: unknown) => fail(request.id, err));
  });

  // Background ANALYZE/VACUUM, only when nothing ran for a moment and nothing is open.
  const interval = data.maintenanceIntervalMs;
  const timer = setInterval(
    () => {
      if (maintaining || busy > 0 || transactions.size > 0 || Date.now() - lastActivity < interval / 4)
        return;
      maintaining = maintainTables(pglite)
        .catch(() => undefined)
        .finally(() => {
          maintaining = undefined;
        });
    },
    interval || 2 ** 30,
  );
  if (!interval) clearInterval(timer);
  send({ type: 'ready' });
}

main().catch((err: unknown) => send({ type: 'failed', error: serializeError(err) }));
