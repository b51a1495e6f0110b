// What PostgreSQL's autovacuum does for a server, done for PGlite (which has no background
// processes): ANALYZE a table once enough of it changed since its last ANALYZE, VACUUM it once
// enough of it is dead rows or new rows, with autovacuum's default thresholds. Without fresh statistics the
// planner guesses row counts and can pick a plan thousands of times slower (a heavy patient's
// Observations). Runs in the worker, only when no request is waiting.
import type { MaintenanceReport } from './pglite-protocol';

interface Runner {
  query<Row>(sql: string): Promise<{ rows: Row[] }>;
}

interface TableActivity {
  name: string;
  live: number;
  dead: number;
  modified: number;
  inserted: number;
}

// autovacuum_analyze_threshold/scale_factor and autovacuum_vacuum_threshold/scale_factor defaults.
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;
// autovacuum_vacuum_insert_threshold/scale_factor: VACUUM after inserts sets the visibility map,
// which lets the planner answer from an index alone (index-only scans) as PostgreSQL does.
const INSERT_BASE = 1000;
const INSERT_SCALE = 0.2;

export async function maintainTables(db: Runner): Promise<MaintenanceReport> {
  // Table counters reach the statistics views only when flushed; PGlite has no process doing it.
  await db.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await db.query<TableActivity>(
    `SELECT format('%I.%I', schemaname, relname) AS name, n_live_tup::float8 AS live,
            n_dead_tup::float8 AS dead, n_mod_since_analyze::float8 AS modified,
            n_ins_since_vacuum::float8 AS inserted
     FROM pg_stat_user_tables`,
  );
  const report: MaintenanceReport = { analyzed: [], vacuumed: [] };
  for (const table of rows) {
    if (
      table.dead > VACUUM_BASE + VACUUM_SCALE * table.live ||
      table.inserted > INSERT_BASE + INSERT_SCALE * table.live
    ) {
      // VACUUM (ANALYZE) does both in one pass over the table.
      const analyze = table.modified > ANALYZE_BASE + ANALYZE_SCALE * table.live;
      await db.query(`VACUUM ${analyze ? '(ANALYZE) ' : ''}${table.name}`);
      report.vacuumed.push(table.name);
      if (analyze) report.analyzed.push(table.name);
    } else if (table.modified > ANALYZE_BASE + ANALYZE_SCALE * table.live) {
      await db.query(`ANALYZE ${table.name}`);
      report.analyzed.push(table.name);
    }
  }
  return report;
}
