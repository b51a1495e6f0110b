// bench/services: bot execution latency over real HTTP on loopback, a bot
// that reads nothing, one that creates and searches through its FHIR client, and one answering an
// HL7 v2 message with an ACK through require('@medplum/core'). Cold: the first $execute in a fresh
// process (WebAssembly compile included); warm: every later one (each still in a fresh QuickJS
// runtime, as in production). PGlite in-process. BOT_BENCH_RUNS sets the count. Also the cost of
// @medplum/core itself: the bundle's size and one sandbox run without HTTP, with and without it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Bot, Project } from '@medplum/fhirtypes';
import { buildServer } from '../../src/server/app';
import { MEDPLUM_CORE_BUNDLE_PATH } from '../../src/server/bots/medplum-core-exports';
import { runInSandbox } from '../../src/server/bots/sandbox';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db';
import { migrateServer } from '../../src/server/migrations';
import { Repository, systemContext } from '../../src/server/repo';

export interface BotLatency {
  runs: number;
  coldMs: number;
  echo: { p50Ms: number; p99Ms: number };
  fhir: { p50Ms: number; p99Ms: number };
  /** ADT message in, ACK out, by a bot that requires @medplum/core (loaded in every run). */
  hl7: { p50Ms: number; p99Ms: number };
  /** The @medplum/core bundle's size; runInSandbox alone (no HTTP) without and with requiring it. */
  core: { bundleKb: number; plainP50Ms: number; requireP50Ms: number };
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
  await migrateServer(db);
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
    const hl7 = await deploy(`"use strict";
      const core_1 = require("@medplum/core");
      exports.handler = async (medplum, event) => {
        const msh = event.input.getSegment('MSH');
        console.log((0, core_1.getReferenceString)({ resourceType: 'Encounter', id: msh.getField(10).toString() }));
        return event.input.buildAck();
      };`);
    /** The i-th request's body and content type: JSON for most bots, an ADT message for `hl7`. */
    const json = (i: number) => ({ contentType: 'application/json', body: JSON.stringify({ i }) });
    const adt = (i: number) => ({
      contentType: 'x-application/hl7-v2+er7',
      body: `MSH|^~\\&|HIS|GEN|BLOOM|CLINIC|20261125093000||ADT^A01|V${i}|P|2.5.1\rPID|1||${i}^^^GEN^MR||Doe^Jane`,
    });
    const time = async (id: string, request: { contentType: string; body: string }): Promise<number> => {
      const start = performance.now();
      const response = await fetch(`${base}Bot/${id}/$execute`, {
        method: 'POST',
        headers: { 'content-type': request.contentType },
        body: request.body,
      });
      await response.text();
      if (!response.ok) throw new Error(`$execute answered ${response.status}`);
      return performance.now() - start;
    };
    const coldMs = await time(echo, json(0));
    const series = async (id: string, request = json) => {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push(await time(id, request(i)));
      times.sort((a, b) => a - b);
      return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
    };
    const result = {
      runs,
      coldMs: Number(coldMs.toFixed(2)),
      echo: await series(echo),
      fhir: await series(fhir),
      hl7: await series(hl7, adt),
      core: await measureCoreCost(runs),
    };
    await app.close();
    return result;
  } finally {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One sandbox run without HTTP, alternating a bot that requires @medplum/core and one that does not. */
async function measureCoreCost(runs: number): Promise<BotLatency['core']> {
  const once = async (code: string): Promise<number> => {
    const start = performance.now();
    const result = await runInSandbox({
      code,
      event: { input: {}, contentType: 'application/json', secrets: {} },
      host: async () => undefined,
      timeoutMs: 10_000,
      memoryBytes: 64 * 1024 * 1024,
    });
    if (!result.ok) throw new Error(result.error);
    return performance.now() - start;
  };
  const plain: number[] = [];
  const withCore: number[] = [];
  for (let i = 0; i < runs; i++) {
    plain.push(await once('exports.handler = async () => 1;'));
    withCore.push(
      await once('exports.handler = async () => typeof require("@medplum/core").createReference;'),
    );
  }
  plain.sort((a, b) => a - b);
  withCore.sort((a, b) => a - b);
  return {
    bundleKb: Number((fs.statSync(MEDPLUM_CORE_BUNDLE_PATH).size / 1024).toFixed(1)),
    plainP50Ms: percentile(plain, 50),
    requireP50Ms: percentile(withCore, 50),
  };
}

export function formatBotLatency(figures: BotLatency): string {
  return (
    `bots ($execute over HTTP, PGlite, ${figures.runs} runs each): cold ${figures.coldMs} ms; ` +
    `warm echo p50 ${figures.echo.p50Ms} ms p99 ${figures.echo.p99Ms} ms; ` +
    `warm create+search p50 ${figures.fhir.p50Ms} ms p99 ${figures.fhir.p99Ms} ms; ` +
    `warm HL7 ADT→ACK with @medplum/core p50 ${figures.hl7.p50Ms} ms p99 ${figures.hl7.p99Ms} ms; ` +
    `@medplum/core bundle ${figures.core.bundleKb} kB, sandbox run p50 ${figures.core.plainP50Ms} ms ` +
    `without it, ${figures.core.requireP50Ms} ms requiring it`
  );
}
