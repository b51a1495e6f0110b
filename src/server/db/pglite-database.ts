// The embedded engine: PostgreSQL compiled to WebAssembly, one connection per process.
import { PGlite } from '@electric-sql/pglite';
import type { Database, QueryResult, Queryable, SqlValue } from './database';

export interface PGliteOptions {
  /** Directory for the data files; omitted means in memory. */
  dataDir?: string;
  /** A tarball made by `dumpDataDir` to start from (tests use a migrated template). */
  loadDataDir?: Blob;
  /** Runs once the database is closed (e.g. to release the data directory's lock). */
  afterClose?: () => void;
}

class PGliteQueryable implements Queryable {
  constructor(private readonly target: Pick<PGlite, 'query'>) {}

  async query<Row>(sql: string, params: readonly SqlValue[] = []): Promise<QueryResult<Row>> {
    const result = await this.target.query<Row>(sql, [...params]);
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
  }
}

export class PGliteDatabase implements Database {
  readonly engine = 'pglite' as const;
  private readonly direct: PGliteQueryable;

  constructor(
    private readonly pglite: PGlite,
    private readonly afterClose?: () => void,
  ) {
    this.direct = new PGliteQueryable(pglite);
  }

  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>> {
    return this.direct.query<Row>(sql, params);
  }

  // PGlite is a single connection; its transaction() holds a mutex, so transactions (and plain
  // queries, which wait for that mutex) are serialized rather than interleaved.
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.pglite.transaction((tx) => fn(new PGliteQueryable(tx)));
  }

  // PGlite delivers NOTIFY of its own (single) connection after commit, as PostgreSQL does.
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    return this.pglite.listen(channel, onNotify);
  }

  async close(): Promise<void> {
    if (!this.pglite.closed) {
      await this.pglite.close();
      this.afterClose?.();
    }
  }

  /** A tarball of the whole database, for `loadDataDir` (test templates). */
  async dump(): Promise<Blob> {
    return this.pglite.dumpDataDir('none');
  }
}

export async function openPGlite(options: PGliteOptions = {}): Promise<PGliteDatabase> {
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
  });
  return new PGliteDatabase(pglite, options.afterClose);
}
