// One SQL interface over two engines (embedded PGlite and PostgreSQL through `pg`). Both speak the
// same PostgreSQL dialect, so everything above this layer writes SQL once.

/** A value bound to a `$n` placeholder. Objects are not accepted: pass JSON as a string and cast `::jsonb`. */
export type SqlValue = string | number | boolean | null | Date | readonly string[];

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>>;
}

export type DatabaseEngine = 'pglite' | 'postgres';

export interface Database extends Queryable {
  readonly engine: DatabaseEngine;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws (the error
   * is rethrown). Queries must go through the given `tx`, not through the Database itself.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * LISTEN on `channel`: `onNotify` gets each NOTIFY payload once its
   * transaction commits, from any connection or server instance on this database. Resolves to a
   * function that stops listening. Optional so that test doubles need not implement it.
   * `onReconnect` runs when a lost listening connection is back: notifications sent meanwhile are lost.
   * `onLost` runs as soon as the listening connection is lost (before any retry).
   */
  /**
   * Whether the database can serve: PGlite answers true while its worker is busy with a query
   * (a health check waiting behind a slow search would report a live server as down). Absent:
   * the health check runs `SELECT 1`.
   */
  healthy?(): Promise<boolean>;
  /**
   * An engine that runs one query at a time (PGlite): how long its oldest waiting request has
   * waited, in ms, for load shedding. Absent: a pool, whose waits the server does not bound.
   */
  queueWaitMs?(): number;
  listen?(
    channel: string,
    onNotify: (payload: string) => void,
    onReconnect?: () => void,
    onLost?: () => void,
  ): Promise<() => Promise<void>>;
}
