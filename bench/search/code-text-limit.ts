// `code:text` (token search on a coding's text) over strings at MAX_STRING_LENGTH: how long the
// search takes when stored Observations carry a `code.text` as long as a body may hold, against the
// same search over short texts (the baseline), on PGlite and on PostgreSQL. The match is a LIKE on
// the token index's text column (src/server/search/kinds/probe.ts), which keeps the first
// MAX_TOKEN_TEXT characters of each text: the first word is found, the last word of a long text is
// not; the Observations found are still sent whole. MAX_STRING_LENGTH bounds one string, not how many
// a user stores, so the bench runs with several counts of long Observations. Each timed search also
// sends another user's read of a
// small resource at the same moment (on PGlite it waits for the same single worker).
// Alone: `npx tsx bench/search/code-text-limit.ts`; PostgreSQL runs when TEST_DATABASE_URL is set (a
// schema of its own, dropped at the end). CODE_TEXT_BENCH_COUNTS (default "4,16") sets the counts
// of Observations, CODE_TEXT_BENCH_SAMPLES (default 5) the searches timed per case.
// Times are printed, never asserted. The machine's load average is printed with each engine.
import os from 'node:os';
import path from 'node:path';
import type { Observation, Patient } from '@medplum/fhirtypes';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { systemContext } from '../../src/server/repo';
import type { BenchDatabaseLocation, BenchEngine } from './database';
import { openBenchDatabase, resetBenchDatabase } from './database';

const MAX_STRING_LENGTH = loadConfig({}).limits.maxStringLength;
/** The word each text starts with: found in every text. */
const FIRST_WORD = 'blood';
/** The word each text ends with: past the indexed part of a long text. */
const LAST_WORD = 'zephyrine';
/** A word no text holds: the search reads every text to the end and matches none. */
const ABSENT_WORD = 'quillwort';
const VOCABULARY = ['blood', 'pressure', 'systolic', 'reading', 'after', 'rest', 'seated', 'left', 'arm'];

interface Timing {
  medianMs: number;
  maxMs: number;
  /** Another user's read sent with each search: its slowest answer. */
  otherReadMaxMs: number;
  matches: number;
}

interface CaseResult {
  engine: BenchEngine;
  textLength: number;
  count: number;
  createMsEach: number;
  firstWord: Timing;
  lastWord: Timing;
  absentWord: Timing;
}

/** Words of the vocabulary up to `length` characters in all, LAST_WORD the last of them. */
function textOfLength(length: number): string {
  const tail = ` ${LAST_WORD}`;
  const words: string[] = [];
  let size = 0;
  for (let i = 0; size < length - tail.length; i++) {
    const word = VOCABULARY[i % VOCABULARY.length];
    words.push(word);
    size += word.length + 1;
  }
  const head = words.join(' ').slice(0, length - tail.length);
  // A cut word would still be a word; the tail keeps the total exact.
  return `${head}${tail}`;
}

function location(engine: BenchEngine): BenchDatabaseLocation {
  const name = `code-text-bench-${process.pid}`;
  return engine === 'pglite'
    ? { engine, dataDir: path.join(os.tmpdir(), name) }
    : {
        engine,
        connectionString: process.env.TEST_DATABASE_URL,
        schema: name.replace(/-/g, '_'),
      };
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) {
    throw new Error(`${response.status} ${await response.text()}`);
  }
  return (await response.json()) as T;
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function runCase(
  engine: BenchEngine,
  textLength: number,
  count: number,
  samples: number,
): Promise<CaseResult> {
  const where = location(engine);
  await resetBenchDatabase(where);
  const db = await openBenchDatabase(where);
  const app = await buildServer({
    config: { ...loadConfig({ LOG_LEVEL: 'warn', PGLITE_MAX_QUEUE_WAIT: '600000' }), port: 0 },
    db,
    getContext: () => systemContext(),
  });
  const base = `${await app.listen({ port: 0, host: '127.0.0.1' })}/fhir/R4/`;
  try {
    const post = <T>(resource: object): Promise<T> =>
      fetch(`${base}${(resource as { resourceType: string }).resourceType}`, {
        method: 'POST',
        headers: { 'content-type': 'application/fhir+json' },
        body: JSON.stringify(resource),
      }).then((response) => json<T>(response));
    const patient = await post<Patient>({ resourceType: 'Patient', name: [{ family: 'Bench' }] });
    const text = textOfLength(textLength);
    const created = await timed(async () => {
      for (let i = 0; i < count; i++) {
        await post<Observation>({
          resourceType: 'Observation',
          status: 'final',
          subject: { reference: `Patient/${patient.id}` },
          code: { text },
        });
      }
    });
    const search = async (word: string): Promise<Timing> => {
      const times: number[] = [];
      const others: number[] = [];
      let matches = 0;
      for (let i = 0; i < samples; i++) {
        const [found, other] = await Promise.all([
          timed(() =>
            fetch(`${base}Observation?code:text=${word}&_elements=status&_count=100`).then((response) =>
              json<{ entry?: unknown[] }>(response),
            ),
          ),
          timed(() => fetch(`${base}Patient/${patient.id}`).then((response) => json<Patient>(response))),
        ]);
        times.push(found.ms);
        others.push(other.ms);
        matches = found.value.entry?.length ?? 0;
      }
      return {
        medianMs: median(times),
        maxMs: Math.max(...times),
        otherReadMaxMs: Math.max(...others),
        matches,
      };
    };
    // One search unmeasured first, so the first timed one does not pay for cold caches alone.
    await search(ABSENT_WORD);
    const firstWord = await search(FIRST_WORD);
    const lastWord = await search(LAST_WORD);
    const absentWord = await search(ABSENT_WORD);
    return { engine, textLength, count, createMsEach: created.ms / count, firstWord, lastWord, absentWord };
  } finally {
    await app.close();
    await db.close();
    await resetBenchDatabase(where);
  }
}

const ms = (value: number): string =>
  value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`;

function format(result: CaseResult): string {
  const timing = (t: Timing): string =>
    `median ${ms(t.medianMs)}, max ${ms(t.maxMs)} (${t.matches} found; another read ${ms(t.otherReadMaxMs)} at worst)`;
  return (
    `  ${result.engine.padEnd(8)} ${String(result.count).padStart(3)} × ${String(result.textLength).padStart(7)} chars: ` +
    `create ${ms(result.createMsEach)} each; ${FIRST_WORD} (first word) ${timing(result.firstWord)}; ` +
    `${LAST_WORD} (last word) ${timing(result.lastWord)}; ` +
    `${ABSENT_WORD} (absent) ${timing(result.absentWord)}`
  );
}

async function main(): Promise<void> {
  const counts = (process.env.CODE_TEXT_BENCH_COUNTS ?? '4,16').split(',').map(Number);
  const samples = Number(process.env.CODE_TEXT_BENCH_SAMPLES ?? 5);
  const engines: BenchEngine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const short = textOfLength(48);
  console.log(
    `code:text bench: MAX_STRING_LENGTH ${MAX_STRING_LENGTH}, baseline text ${short.length} chars ("${short}"), ` +
      `${samples} searches per case, node ${process.version}, ${os.cpus().length} cores`,
  );
  for (const engine of engines) {
    console.log(
      `${engine}: load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')}`,
    );
    for (const count of counts) {
      for (const textLength of [short.length, MAX_STRING_LENGTH]) {
        console.log(format(await runCase(engine, textLength, count, samples)));
      }
    }
    console.log(
      `${engine}: load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')} at the end`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
