// A Database that counts the SQL statements sent through it (also inside transactions), for tests
// that prove how many queries a request costs.
import type { Database, Queryable, SqlValue } from '../../../src/server/db';

export interface CountingDatabase extends Database {
  statements: string[];
}

export function countingDatabase(db: Database): CountingDatabase {
  const statements: string[] = [];
  const counted = (target: Queryable): Queryable => ({
    query<Row>(sql: string, params?: readonly SqlValue[]) {
      statements.push(sql);
      return target.query<Row>(sql, params);
    },
  });
  return {
    engine: db.engine,
    statements,
    query<Row>(sql: string, params?: readonly SqlValue[]) {
      statements.push(sql);
      return db.query<Row>(sql, params);
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return db.transaction((tx) => fn(counted(tx)));
    },
    close: () => db.close(),
  };
}
