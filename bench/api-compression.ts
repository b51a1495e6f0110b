// `tsx bench/api-compression.ts`: what compressing the API's answers costs and saves, to choose the
// threshold and levels of src/server/api-delivery.ts. Servers side by side (bench/rest-servers.ts:
// Bloom's API on PGlite, no token check), each with other levels (BENCH_COMPRESSION), loaded by
// autocannon at 16 connections with the answers the patient app and Medplum clients fetch:
// - a vitals search (`Observation?subject=…&code=…&_sort=-date&_count=20`, FHIR search JSON),
// - the same 20 Observations through GraphQL (`$graphql` ObservationList),
// - NDJSON as a bulk export file holds it (the 100 Observations, one a line): a bulk export needs a
//   signed-in requester, which this server (no token check) has not, so its compressor time per file
//   is measured in this process with the same zlib settings, and its bytes;
// - a Patient read (under 1 KB: the threshold's case, also run against a server with no threshold);
// asking for no compression, then gzip and brotli at each level; rounds alternate the variants.
// Prints req/s (mean of the rounds and each round), p99 and the bytes each answer takes on the
// wire, with the machine's load. BENCH_DATABASE_URL runs the API on PostgreSQL instead.
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import readline from 'node:readline';
import autocannon from 'autocannon';
import zlib from 'node:zlib';
import type { ApiCompression } from '../src/server/api-delivery';

// Not imported from rest-servers.ts: importing it would start a second server in this process.
const benchPatient = {
  resourceType: 'Patient',
  name: [{ given: ['Maria'], family: 'Garcia' }],
  gender: 'female',
  birthDate: '1994-03-02',
};

const CONNECTIONS = 16;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const OBSERVATIONS = 100;

/** The servers compared: each a threshold and a brotli quality and gzip level. */
const SERVERS: Record<string, ApiCompression> = {
  low: { threshold: 1024, brotliQuality: 1, gzipLevel: 1 },
  mid: { threshold: 1024, brotliQuality: 4, gzipLevel: 6 },
  high: { threshold: 1024, brotliQuality: 6, gzipLevel: 9 },
  // Only for the small read: the same levels with no threshold.
  'no-threshold': { threshold: 0, brotliQuality: 4, gzipLevel: 6 },
};

interface Answer {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}

interface Variant {
  readonly label: string;
  readonly server: string;
  readonly encoding: 'identity' | 'gzip' | 'br';
}

function variantsFor(answer: Answer): Variant[] {
  const levels = (server: string): Variant[] => [
    { label: `gzip ${SERVERS[server].gzipLevel}`, server, encoding: 'gzip' },
    { label: `br ${SERVERS[server].brotliQuality}`, server, encoding: 'br' },
  ];
  if (answer.name === 'Patient read') {
    return [
      { label: 'none', server: 'mid', encoding: 'identity' },
      { label: 'br 4 (threshold 1 KB)', server: 'mid', encoding: 'br' },
      ...levels('no-threshold').map((v) => ({ ...v, label: `${v.label} (no threshold)` })),
    ];
  }
  return [{ label: 'none', server: 'mid', encoding: 'identity' }, ...['low', 'mid', 'high'].flatMap(levels)];
}

async function startApi(compression: ApiCompression): Promise<{ api: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/rest-servers.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'warn', BENCH_COMPRESSION: JSON.stringify(compression) },
  });
  const lines = readline.createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { api: (JSON.parse(first) as { api: string }).api, stop: () => child.kill('SIGTERM') };
}

async function send(url: string, init: { method: string; body?: string; headers?: Record<string, string> }) {
  const response = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/fhir+json', ...init.headers },
  });
  if (response.status >= 300 && response.status !== 202) {
    throw new Error(`${init.method} ${url}: ${response.status} ${await response.text()}`);
  }
  return response;
}

/** The clinic data every server holds, and the answers (paths from the server's root) to load it with. */
async function seed(api: string): Promise<Answer[]> {
  const post = async (type: string, body: object) =>
    (
      (await (
        await send(`${api}/fhir/R4/${type}`, { method: 'POST', body: JSON.stringify(body) })
      ).json()) as {
        id: string;
      }
    ).id;
  const patient = await post('Patient', benchPatient);
  for (let i = 0; i < OBSERVATIONS; i++) {
    await post('Observation', {
      resourceType: 'Observation',
      status: 'final',
      category: [
        {
          coding: [
            { system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' },
          ],
        },
      ],
      code: { coding: [{ system: 'http://loinc.org', code: '29463-7', display: 'Body weight' }] },
      subject: { reference: `Patient/${patient}` },
      effectiveDateTime: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      valueQuantity: { value: 62 + i * 0.1, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' },
    });
  }
  const query = `{ ObservationList(subject: "Patient/${patient}", code: "http://loinc.org|29463-7", _sort: "-date", _count: 20) {
    resourceType id status effectiveDateTime
    code { coding { system code display } }
    category { coding { system code } }
    valueQuantity { value unit system code }
    subject { reference }
  } }`;
  return [
    {
      name: 'FHIR search',
      method: 'GET',
      path: `/fhir/R4/Observation?subject=Patient/${patient}&code=http://loinc.org|29463-7&_sort=-date&_count=20`,
    },
    { name: 'GraphQL', method: 'POST', path: '/fhir/R4/$graphql', body: JSON.stringify({ query }) },
    { name: 'Patient read', method: 'GET', path: `/fhir/R4/Patient/${patient}` },
  ];
}

/** Bytes of the body as sent (node:http, not fetch: fetch decodes and hides the encoded length). */
function wireBytes(
  base: string,
  answer: Answer,
  encoding: string,
): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(answer.path, base),
      {
        method: answer.method,
        headers: { 'accept-encoding': encoding, 'content-type': 'application/json' },
      },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () =>
          resolve({ bytes, encoding: String(response.headers['content-encoding'] ?? 'identity') }),
        );
      },
    );
    request.on('error', reject);
    request.end(answer.body);
  });
}

/** NDJSON of the 100 Observations, and what each level's compressor costs on it (median of 50). */
async function ndjsonFigures(api: string, search: string): Promise<string[]> {
  const bundle = (await (
    await send(new URL(search.replace('_count=20', `_count=${OBSERVATIONS}`), api).toString(), {
      method: 'GET',
    })
  ).json()) as { entry: { resource: object }[] };
  const text = Buffer.from(bundle.entry.map((e) => `${JSON.stringify(e.resource)}\n`).join(''));
  const timed = (label: string, compress: () => Buffer): string => {
    const times: number[] = [];
    let size = 0;
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      size = compress().length;
      times.push(performance.now() - started);
    }
    times.sort((x, y) => x - y);
    return `  ${'NDJSON'.padEnd(14)} ${label.padEnd(24)} ${times[25].toFixed(2).padStart(6)} ms to compress ${String(size).padStart(8)} ${`${((100 * size) / text.length).toFixed(1)}%`.padStart(8)}`;
  };
  const lines = [
    `  ${'NDJSON'.padEnd(14)} ${'none'.padEnd(24)} ${'0.00'.padStart(6)} ms to compress ${String(text.length).padStart(8)}   100.0%`,
  ];
  for (const { gzipLevel, brotliQuality } of [SERVERS.low, SERVERS.mid, SERVERS.high]) {
    lines.push(timed(`gzip ${gzipLevel}`, () => zlib.gzipSync(text, { level: gzipLevel })));
    lines.push(
      timed(`br ${brotliQuality}`, () =>
        zlib.brotliCompressSync(text, {
          params: {
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality,
          },
        }),
      ),
    );
  }
  return lines;
}

async function main(): Promise<void> {
  const servers = new Map<string, { api: string; stop: () => void }>();
  try {
    for (const [name, compression] of Object.entries(SERVERS)) {
      servers.set(name, await startApi(compression));
    }
    // Every server holds the same data; the answers' paths differ only by ids.
    const answers = new Map<string, Answer[]>();
    for (const [name, server] of servers) answers.set(name, await seed(server.api));
    const loads: string[] = [
      os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    ];
    const rps = new Map<string, number[]>();
    const p99 = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, answer] of (answers.get('mid') ?? []).entries()) {
        for (const variant of variantsFor(answer)) {
          const server = servers.get(variant.server);
          const path = answers.get(variant.server)?.[index];
          if (!server || !path) throw new Error(`no server ${variant.server}`);
          const result = await autocannon({
            url: new URL(path.path, server.api).toString(),
            method: path.method,
            body: path.body,
            connections: CONNECTIONS,
            duration: DURATION_SECONDS,
            headers: { 'accept-encoding': variant.encoding, 'content-type': 'application/json' },
          });
          if (result.errors + result.non2xx > 0) throw new Error(`${answer.name} ${variant.label}: errors`);
          const key = `${answer.name}|${variant.label}`;
          rps.set(key, [...(rps.get(key) ?? []), result.requests.average]);
          p99.set(key, Math.max(p99.get(key) ?? 0, result.latency.p99));
        }
      }
      loads.push(
        os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' '),
      );
    }
    console.log(
      `API compression (autocannon c${CONNECTIONS}, ${DURATION_SECONDS} s × ${ROUNDS} rounds alternated, ` +
        `${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${os.cpus().length} cores; load before/after each round: ${loads.join(' | ')}):`,
    );
    console.log(
      `  ${'answer'.padEnd(14)} ${'encoding'.padEnd(24)} ${'req/s'.padStart(6)} ${'ratio'.padStart(6)}  ` +
        `${'rounds'.padEnd(12)} ${'p99'.padStart(6)} ${'bytes'.padStart(8)} ${'of plain'.padStart(8)}`,
    );
    for (const [index, answer] of (answers.get('mid') ?? []).entries()) {
      let plainRps = 0;
      let plainBytes = 0;
      for (const variant of variantsFor(answer)) {
        const key = `${answer.name}|${variant.label}`;
        const runs = rps.get(key) ?? [];
        const mean = runs.reduce((a, b) => a + b, 0) / runs.length;
        const path = answers.get(variant.server)?.[index] ?? answer;
        const sent = await wireBytes(servers.get(variant.server)?.api ?? '', path, variant.encoding);
        if (variant.label === 'none') {
          plainRps = mean;
          plainBytes = sent.bytes;
        }
        console.log(
          `  ${answer.name.padEnd(14)} ${`${variant.label}${sent.encoding !== variant.encoding ? ` (sent ${sent.encoding})` : ''}`.padEnd(24)} ` +
            `${mean.toFixed(0).padStart(6)} ${(mean / plainRps).toFixed(2).padStart(6)}  ` +
            `${runs
              .map((r) => r.toFixed(0))
              .join(', ')
              .padEnd(12)} ${`${p99.get(key)} ms`.padStart(6)} ` +
            `${String(sent.bytes).padStart(8)} ${`${((100 * sent.bytes) / plainBytes).toFixed(1)}%`.padStart(8)}`,
        );
      }
    }
    const mid = servers.get('mid');
    const search = answers.get('mid')?.[0];
    if (mid && search) console.log((await ndjsonFigures(mid.api, search.path)).join('\n'));
  } finally {
    for (const server of servers.values()) server.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
