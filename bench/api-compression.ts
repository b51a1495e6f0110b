// `tsx bench/api-compression.ts`: what compressing the API's answers costs and saves. One server
// (bench/rest-servers.ts: Bloom's API on PGlite, no token check), loaded by autocannon at 16
// connections with a vitals-sized search answer (a patient's 20 Observations) and a Patient read,
// asking for no compression, gzip and brotli in turn, rounds alternated; prints req/s, p99 and the
// bytes each answer takes on the wire. BENCH_DATABASE_URL runs the API on PostgreSQL instead.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import autocannon from 'autocannon';

// Not imported from rest-servers.ts: importing it would start a second server in this process.
const benchPatient = {
  resourceType: 'Patient',
  name: [{ given: ['Maria'], family: 'Garcia' }],
  gender: 'female',
};

const CONNECTIONS = 16;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const ENCODINGS = ['identity', 'gzip', 'br'] as const;

async function startApi(): Promise<{ api: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/rest-servers.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { api: (JSON.parse(first) as { api: string }).api, stop: () => child.kill('SIGTERM') };
}

async function post(url: string, body: object): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { id: string }).id;
}

async function seed(api: string): Promise<{ search: string; read: string }> {
  const patient = await post(`${api}/fhir/R4/Patient`, benchPatient);
  for (let i = 0; i < 20; i++) {
    await post(`${api}/fhir/R4/Observation`, {
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
      effectiveDateTime: new Date(Date.UTC(2026, 0, 1 + i * 7)).toISOString(),
      valueQuantity: { value: 62 + i * 0.4, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' },
    });
  }
  return {
    search: `${api}/fhir/R4/Observation?subject=Patient/${patient}&code=http://loinc.org|29463-7&_sort=-date`,
    read: `${api}/fhir/R4/Patient/${patient}`,
  };
}

async function wireBytes(url: string, encoding: string): Promise<number> {
  // node:http, not fetch: fetch decodes and hides the encoded length.
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': encoding } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve(bytes));
      })
      .on('error', reject);
  });
}

async function main(): Promise<void> {
  const { api, stop } = await startApi();
  try {
    const urls = await seed(api);
    const rps: Record<string, number[]> = {};
    const p99: Record<string, number[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, url] of Object.entries(urls)) {
        for (const encoding of ENCODINGS) {
          const result = await autocannon({
            url,
            connections: CONNECTIONS,
            duration: DURATION_SECONDS,
            headers: { 'accept-encoding': encoding },
          });
          if (result.errors + result.non2xx > 0) throw new Error(`${name} ${encoding}: errors`);
          const key = `${name} ${encoding}`;
          (rps[key] ??= []).push(result.requests.average);
          (p99[key] ??= []).push(result.latency.p99);
        }
      }
    }
    console.log(
      `API compression (autocannon c${CONNECTIONS}, ${DURATION_SECONDS} s × ${ROUNDS} rounds, ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}):`,
    );
    for (const [name, url] of Object.entries(urls)) {
      for (const encoding of ENCODINGS) {
        const key = `${name} ${encoding}`;
        const mean = rps[key].reduce((a, b) => a + b, 0) / rps[key].length;
        console.log(
          `  ${key.padEnd(16)} ${mean.toFixed(0).padStart(6)} req/s (${rps[key].map((r) => r.toFixed(0)).join(', ')})` +
            `  p99 ${Math.max(...p99[key])} ms  ${await wireBytes(url, encoding)} bytes on the wire`,
        );
      }
    }
  } finally {
    stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
