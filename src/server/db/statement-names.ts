// Names for repeated SQL texts, so PostgreSQL keeps their plans (named prepared statements).
// Measured in bench/search (throughput-profile.ts): planning a search took 0.4-0.5 ms against
// 0.1-1 ms of execution, most of PostgreSQL's CPU per request. A named statement is parsed once per
// connection and, after five runs, PostgreSQL itself chooses between a cached generic plan and a
// fresh plan by their estimated costs (plan_cache_mode=auto).

/** Runs before a text is named: one-off statements (DDL, migrations, rare queries) stay unnamed. */
const RUNS_BEFORE_NAMING = 2;
/** Names handed out per process: each pooled connection keeps at most this many plans. */
const MAX_NAMED_STATEMENTS = 500;

export class StatementNames {
  private readonly runs = new Map<string, number>();
  private readonly names = new Map<string, string>();
  private readonly refused = new Set<string>();

  constructor(
    private readonly maxNamed = MAX_NAMED_STATEMENTS,
    private readonly runsBeforeNaming = RUNS_BEFORE_NAMING,
  ) {}

  /**
   * The name to prepare `sql` under, or undefined to send it unnamed. Only statements with
   * parameters are named: those already use the extended protocol, so they are single statements.
   */
  nameFor(sql: string, paramCount: number): string | undefined {
    if (paramCount === 0 || this.refused.has(sql)) {
      return undefined;
    }
    const named = this.names.get(sql);
    if (named || this.names.size >= this.maxNamed) {
      return named;
    }
    const runs = (this.runs.get(sql) ?? 0) + 1;
    if (runs < this.runsBeforeNaming) {
      // Bounded like the names: past the cap, counting stops.
      if (this.runs.size < this.maxNamed * 4) {
        this.runs.set(sql, runs);
      }
      return undefined;
    }
    this.runs.delete(sql);
    const name = `bloom_${this.names.size + 1}`;
    this.names.set(sql, name);
    return name;
  }

  /** Never names `sql` again (its prepared form failed where an unnamed run may not). */
  refuse(sql: string): void {
    this.refused.add(sql);
  }
}

/**
 * A prepared statement whose tables changed shape since it was prepared (e.g. a migration added a
 * column under a SELECT *): PostgreSQL refuses it without running it, so an unnamed retry is safe.
 */
export function isStalePreparedStatement(err: unknown): boolean {
  return (
    err instanceof Error &&
    (err as Error & { code?: string }).code === '0A000' &&
    /cached plan must not change result type/.test(err.message)
  );
}
