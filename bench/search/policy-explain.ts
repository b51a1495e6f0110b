// The plans behind the policy budget: each hot search's SQL as a member without a policy and as the
// criteria-restricted practitioner of policy-budget.ts, run under EXPLAIN (ANALYZE, BUFFERS) on a
// clinic bench/search/run.ts already loaded. `npx tsx bench/search/policy-explain.ts [name filter]`
// with the same SEARCH_BENCH_* settings; prints the plans one after the other.
import os from 'node:os';
import { parseSearchRequest } from '../../src/fhir/search';
import type { Database, Queryable, SqlValue } from '../../src/server/db';
import { Repository } from '../../src/server/repo';
import type { BenchEngine } from './database';
import { benchLocation, openBenchDatabase } from './database';
import { datasetShape, seededRandom } from './dataset';
import { hotQueries } from './hot-queries';
import { CRITERIA_POLICY, memberContext } from './policy-budget';
import { searchBenchOptionsFromEnv } from './run';

/** A Database that keeps the SELECTs a search runs, to EXPLAIN them afterwards. */
function recording(db: Database, log: { sql: string; params: readonly SqlValue[] }[]): Database {
  const record = (target: Queryable): Queryable => ({
    query(sql, params) {
      if (/^\s*SELECT/i.test(sql)) log.push({ sql, params: params ?? [] });
      return target.query(sql, params);
    },
  });
  return {
    engine: db.engine,
    query: record(db).query,
    transaction: (fn) => db.transaction((tx) => fn(record(tx))),
    close: () => db.close(),
  };
}

async function main(): Promise<void> {
  const options = searchBenchOptionsFromEnv();
  const only = process.argv[2];
  for (const engine of options.engines as BenchEngine[]) {
    const shape = datasetShape(options.sizes[engine]);
    const db = await openBenchDatabase(benchLocation(engine, shape.total));
    try {
      console.log(`policy plans on ${engine}: ${shape.total} resources, load ${os.loadavg().join(' ')}`);
      const log: { sql: string; params: readonly SqlValue[] }[] = [];
      const recorded = recording(db, log);
      const members: [string, Repository][] = [
        ['no policy', new Repository(recorded, memberContext([]))],
        ['criteria policy', new Repository(recorded, memberContext([CRITERIA_POLICY]))],
      ];
      for (const query of hotQueries(shape)) {
        if (query.searchOptions || (only && !query.name.includes(only))) continue;
        const url = query.pick(seededRandom(11)).url;
        for (const [who, repo] of members) {
          log.length = 0;
          await repo.search(parseSearchRequest(url));
          for (const { sql, params } of log) {
            const { rows } = await db.query<{ 'QUERY PLAN': string }>(
              `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
              params,
            );
            console.log(`\n=== ${url} (${who})\n${sql}\n-- ${JSON.stringify(params)}`);
            console.log(rows.map((row) => row['QUERY PLAN']).join('\n'));
          }
        }
      }
    } finally {
      await db.close();
    }
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
