// bench/services (issue #10 Benchmark): bot execution latency over real HTTP on loopback, a bot
// that reads nothing and one that creates and searches through its FHIR client. Cold: the first
// $execute in a fresh process (WebAssembly compile included); warm: every later one (each still in
// a fresh QuickJS runtime, as in production). PGlite in-process. BOT_BENCH_RUNS sets the count.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Bot, Project } from '@medplum/fhirtypes';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { migrate, openDatabase } from '../../src/server/db';
import { Repository, systemContext } from '../../src/server/repo';

export interface BotLatency {
  runs: number;
  coldMs: number;
  echo: { p50Ms: number; p99Ms: number };
  fhir: { p50Ms: number; p99Ms: number };
}

function percentile(sorted: number[], p: number): number {
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))].toFixed(2));
}

export async function measureBotLatency(
  runs = Number(process.env.BOT_BENCH_RUNS ?? 200),
): Promise<BotLatency> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bench-bots-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), port: 0 };
  const db = await openDatabase({ ...config, databaseUrl: undefined });
  await migrate(db);
  try {
    const project = await new Repository(db, systemContext()).createResource<Project>({
      resourceType: 'Project',
      name: 'Bench',
    });
    const app = await buildServer({ config, db, getContext: () => systemContext(project.id) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/fhir/R4/`;
    const repo = new Repository(db, systemContext(project.id));
    const deploy = async (code: string): Promise<string> => {
      const bot = await repo.createResource<Bot>({ resourceType: 'Bot', name: 'bench' });
      const response = await fetch(`${base}Bot/${bot.id}/$deploy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
      if (!response.ok) throw new Error(await response.text());
      return bot.id as string;
    };
    const echo = await deploy('exports.handler = async (medplum, event) => ({ echo: event.input });');
    const fhir = await deploy(`exports.handler = async (medplum, event) => {
      const p = await medplum.createResource({ resourceType: 'Patient', name: [{ family: 'Bench' + event.input.i }] });
      return (await medplum.searchResources('Patient', { _id: p.id })).length;
    };`);
    const time = async (id: string, i: number): Promise<number> => {
      const start = performance.now();
      const response = await fetch(`${base}Bot/${id}/$execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ i }),
      });
      await response.text();
      if (!response.ok) throw new Error(`$execute answered ${response.status}`);
      return performance.now() - start;
    };
    const coldMs = await time(echo, 0);
    const series = async (id: string) => {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push(await time(id, i));
      times.sort((a, b) => a - b);
      return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
    };
    const result = {
      runs,
      coldMs: Number(coldMs.toFixed(2)),
      echo: await series(echo),
      fhir: await series(fhir),
    };
    await app.close();
    return result;
  } finally {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatBotLatency(figures: BotLatency): string {
  return (
    `bots ($execute over HTTP, PGlite, ${figures.runs} runs each): cold ${figures.coldMs} ms; ` +
    `warm echo p50 ${figures.echo.p50Ms} ms p99 ${figures.echo.p99Ms} ms; ` +
    `warm create+search p50 ${figures.fhir.p50Ms} ms p99 ${figures.fhir.p99Ms} ms`
  );
}
