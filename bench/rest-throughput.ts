// REST read and create throughput of Bloom's API against a bare Fastify route answering a fixed body
// of the same size, both served by one child process (bench/rest-servers.ts) and loaded one at a
// time by autocannon from this process, so the server side gets one core to itself.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { benchPatient } from './rest-servers';

export interface Throughput {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

export interface RestFigures {
  bodyBytes: number;
  bareRead: Throughput;
  apiRead: Throughput;
  bareCreate: Throughput;
  apiCreate: Throughput;
}

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
const PATIENTS_TO_READ = 500;

async function load(url: string, options: Partial<autocannon.Options>): Promise<Throughput> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, ...options });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function startServers(): Promise<{ api: string; bare: string; bodyBytes: number; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/rest-servers.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
  });
  const addresses = JSON.parse(first) as { api: string; bare: string; bodyBytes: number };
  return { ...addresses, stop: () => child.kill('SIGTERM') };
}

async function createPatients(api: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${api}/fhir/R4/Patient`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: JSON.stringify(benchPatient),
    });
    ids.push(((await response.json()) as { id: string }).id);
  }
  return ids;
}

export async function measureRest(): Promise<RestFigures> {
  const servers = await startServers();
  try {
    const ids = await createPatients(servers.api, PATIENTS_TO_READ);
    let next = 0;
    const readPath = (): string => `/fhir/R4/Patient/${ids[next++ % ids.length]}`;
    const createBody = JSON.stringify(benchPatient);
    const post = {
      method: 'POST' as const,
      headers: { 'content-type': 'application/fhir+json' },
      body: createBody,
    };

    const bareRead = await load(`${servers.bare}/fixed`, {});
    const apiRead = await load(servers.api, {
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: readPath() }) }],
    });
    const bareCreate = await load(`${servers.bare}/fixed`, post);
    const apiCreate = await load(`${servers.api}/fhir/R4/Patient`, post);
    return { bodyBytes: servers.bodyBytes, bareRead, apiRead, bareCreate, apiCreate };
  } finally {
    servers.stop();
  }
}
