// The server engine: a `pg` connection pool against a real PostgreSQL.
import pg from 'pg';
import type { Database, QueryResult, Queryable, SqlValue } from './database';
import { isStalePreparedStatement, StatementNames } from './statement-names';

export interface PostgresOptions {
  connectionString: string;
  /** Schema to work in (tests give each file its own); created if missing. Default: the server's search_path. */
  schema?: string;
  maxConnections?: number;
}

/** One statement on the pool, prepared under its name once it repeats. */
async function runStatement<Row>(
  target: pg.Pool,
  names: StatementNames,
  sql: string,
  params: readonly SqlValue[],
): Promise<QueryResult<Row>> {
  const values = [...params];
  const name = names.nameFor(sql, values.length);
  let result: pg.QueryResult;
  try {
    result = await target.query({ name, text: sql, values });
  } catch (err) {
    if (!name || !isStalePreparedStatement(err)) {
      throw err;
    }
    names.refuse(sql);
    result = await target.query({ text: sql, values });
  }
  return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
}

// Statements inside a transaction stay unnamed: a stale prepared statement there would abort the
// transaction before the unnamed retry (migrations and DDL run in transactions).
class ClientQueryable implements Queryable {
  constructor(private readonly client: pg.PoolClient) {}

  async query<Row>(sql: string, params: readonly SqlValue[] = []): Promise<QueryResult<Row>> {
    const result = await this.client.query(sql, [...params]);
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
  }
}

export class PostgresDatabase implements Database {
  readonly engine = 'postgres' as const;

  private readonly names = new StatementNames();

  constructor(private readonly pool: pg.Pool) {}

  async query<Row = Record<string, unknown>>(
    sql: string,
    params: readonly SqlValue[] = [],
  ): Promise<QueryResult<Row>> {
    return runStatement<Row>(this.pool, this.names, sql, params);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    // A checked-out client has no listener of the pool's: a connection the database ends mid-
    // transaction would emit an 'error' nobody hears. Its next query fails; the client is discarded.
    const onError = (err: Error): void => {
      broken = err;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await fn(new ClientQueryable(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // A connection that cannot roll back is discarded instead of returned to the pool.
        broken = rollbackError as Error;
      }
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  // A dedicated connection per channel (a pooled one would be handed to other queries), opened with
  // the pool's settings so it shares its search_path. Reconnects after a lost connection.
  async listen(
    channel: string,
    onNotify: (payload: string) => void,
    onReconnect?: () => void,
    onConnectionLost?: () => void,
  ): Promise<() => Promise<void>> {
    let client: pg.Client | undefined;
    let stopped = false;
    const reconnect = (): void => {
      if (stopped) return;
      setTimeout(() => {
        connect().then(
          () => onReconnect?.(),
          () => reconnect(),
        );
      }, 1000);
    };
    const connect = async (): Promise<void> => {
      const next = new pg.Client(this.pool.options);
      next.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      // One retry loop per lost connection ('error' may come without 'end' and the reverse).
      let lost = false;
      const onLost = (): void => {
        if (lost || stopped) return;
        lost = true;
        onConnectionLost?.();
        reconnect();
      };
      next.on('error', onLost);
      next.on('end', onLost);
      try {
        await next.connect();
        await next.query(`LISTEN ${quoteIdentifier(channel)}`);
      } catch (err) {
        // The caller retries; this client's own events must not start a second loop.
        lost = true;
        await next.end().catch(() => undefined);
        throw err;
      }
      client = next;
    };
    await connect();
    return async () => {
      stopped = true;
      await client?.end();
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

function quoteIdentifier(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}

/**
 * Settings of every pooled connection. JIT is off: searches are short OLTP statements, and a row
 * estimate gone wrong (a chain, _has, a skewed parameter) pushes a 2 ms query's cost past
 * jit_above_cost, where compiling it takes 50–300 ms (measured at 1M resources, bench/search).
 */
function connectionSettings(schema: string | undefined): string {
  return ['-c jit=off', ...(schema ? [`-c search_path=${quoteIdentifier(schema)}`] : [])].join(' ');
}

export async function openPostgres(options: PostgresOptions): Promise<PostgresDatabase> {
  if (options.schema) {
    // Create the schema with a one-off connection, then pin every pooled connection to it.
    const setup = new pg.Client({ connectionString: options.connectionString });
    await setup.connect();
    try {
      await setup.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(options.schema)}`);
    } finally {
      await setup.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    options: connectionSettings(options.schema),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new PostgresDatabase(pool);
  await db.query('SELECT 1');
  return db;
}
