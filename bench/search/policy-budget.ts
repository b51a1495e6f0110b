// The AccessPolicy budget: each hot search as a member without a policy (Medplum's
// legacy `*`) and as a practitioner whose policy restricts Observations by criteria, side by side,
// p50 / p99 ms one at a time on the same targets. The criteria name every code the clinic uses,
// so both answer the same rows and the ratio is the cost of the policy's SQL alone (goal ≤ 1.3).
import type { AccessPolicy } from '@medplum/fhirtypes';
import { parseSearchRequest } from '../../src/fhir/search';
import { combinePolicies } from '../../src/server/access/policy';
import type { Database } from '../../src/server/db';
import { Repository } from '../../src/server/repo';
import type { RepositoryContext } from '../../src/server/repo';
import { LABS, LOINC, seededRandom, VITALS } from './dataset';
import type { HotQuery } from './hot-queries';

/** The project the bench clinic is loaded into (policies keep a member to their project). */
export const BENCH_PROJECT = 'bench-clinic';

export interface PolicyLatency {
  name: string;
  open: { p50Ms: number; p99Ms: number };
  criteria: { p50Ms: number; p99Ms: number };
  /** criteria p50 / open p50 (goal: ≤ 1.3) */
  ratio: number;
  /** samples where the two answered different rows */
  mismatches: number;
}

export function memberContext(grants: AccessPolicy[]): RepositoryContext {
  const profile = { reference: 'Practitioner/bench-member' };
  return {
    project: BENCH_PROJECT,
    author: profile,
    access: {
      superAdmin: false,
      projectAdmin: false,
      profile,
      membership: { reference: 'ProjectMembership/bench-member' },
      policy: combinePolicies(
        grants.map((policy) => ({ policy })),
        profile,
      ),
    },
  };
}

export const CRITERIA_POLICY: AccessPolicy = {
  resourceType: 'AccessPolicy',
  resource: [
    {
      resourceType: 'Observation',
      criteria: `Observation?code=${[...VITALS, ...LABS].map((v) => `${LOINC}|${v.code}`).join(',')}`,
    },
    ...['Patient', 'Practitioner', 'DiagnosticReport', 'Communication', 'Schedule', 'Slot'].map(
      (resourceType) => ({ resourceType }),
    ),
  ],
};

function summary(times: number[]): { p50Ms: number; p99Ms: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => Number(sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)].toFixed(2));
  return { p50Ms: at(50), p99Ms: at(99) };
}

/** Rows loaded before the clinic had a project are placed in it (once; a no-op afterwards). */
export async function placeInBenchProject(db: Database): Promise<void> {
  await db.query('UPDATE resource SET project = $1 WHERE project IS NULL', [BENCH_PROJECT]);
}

export async function measurePolicyBudget(
  db: Database,
  queries: HotQuery[],
  options: { samples: number; warmup: number },
): Promise<PolicyLatency[]> {
  const open = new Repository(db, memberContext([]));
  const restricted = new Repository(db, memberContext([CRITERIA_POLICY]));
  const figures: PolicyLatency[] = [];
  for (const query of queries.filter((q) => !q.searchOptions)) {
    const random = seededRandom(11);
    const openTimes: number[] = [];
    const criteriaTimes: number[] = [];
    let mismatches = 0;
    for (let i = 0; i < options.warmup + options.samples; i++) {
      const request = parseSearchRequest(query.pick(random).url);
      // Alternate which runs first, so neither always finds the pages the other just read.
      const order = i % 2 === 0 ? [open, restricted] : [restricted, open];
      const runs = new Map<Repository, { ms: number; ids: string }>();
      for (const repo of order) {
        const started = performance.now();
        const result = await repo.search(request);
        runs.set(repo, {
          ms: performance.now() - started,
          ids: [...result.resources, ...result.included].map((r) => r.id).join(),
        });
      }
      if (i < options.warmup) {
        continue;
      }
      const a = runs.get(open)!;
      const b = runs.get(restricted)!;
      openTimes.push(a.ms);
      criteriaTimes.push(b.ms);
      mismatches += a.ids === b.ids ? 0 : 1;
    }
    const openFigures = summary(openTimes);
    const criteriaFigures = summary(criteriaTimes);
    figures.push({
      name: query.name,
      open: openFigures,
      criteria: criteriaFigures,
      ratio: Number((criteriaFigures.p50Ms / Math.max(openFigures.p50Ms, 0.01)).toFixed(2)),
      mismatches,
    });
  }
  return figures;
}

export function printPolicyFigures(figures: PolicyLatency[]): void {
  console.log(
    '  under an AccessPolicy (member without policy vs Observation criteria policy, p50 / p99 ms):',
  );
  for (const q of figures) {
    console.log(
      `    ${q.name.padEnd(58)} no policy ${q.open.p50Ms} / ${q.open.p99Ms}   criteria ${q.criteria.p50Ms} / ${q.criteria.p99Ms}` +
        `   ratio ${q.ratio}${q.mismatches ? `   RESULT DIFFERS in ${q.mismatches}` : ''}`,
    );
  }
}
