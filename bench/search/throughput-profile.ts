// Where a server's CPU goes for one cell of the throughput bench: serves the bench clinic
// (throughput.ts loads it) with one build under `node --cpu-prof`, drives one query for one role
// with autocannon, then sums the profile's self time by function and by source area.
//   npx tsx bench/search/throughput-profile.ts --query vitals|name|read --role patient|practitioner
//     [--root DIR] [--seconds 15] [--connections 16]
// Needs TEST_DATABASE_URL and the schema throughput.ts loaded (THROUGHPUT_SIZE, default 50000).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { execFileSync } from 'node:child_process';
import autocannon from 'autocannon';
import { datasetShape, LOINC, VITALS } from './dataset';

const PASSWORD = 'bench-throughput-2026';
const NAME_PREFIXES = ['smi', 'joh', 'wil', 'bro', 'gar', 'mil', 'dav', 'lee', 'kin', 'hil'];

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

async function post<T>(url: string, body: string, type: string): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
  if (!response.ok) {
    throw new Error(`${url}: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as T;
}

async function signIn(base: string, role: string): Promise<string> {
  const verifier = 'v'.repeat(43) + role;
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const login = await post<{ code: string }>(
    `${base}/auth/login`,
    JSON.stringify({
      email: `bench-${role}@example.org`,
      password: PASSWORD,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    }),
    'application/json',
  );
  const token = await post<{ access_token: string }>(
    `${base}/oauth2/token`,
    new URLSearchParams({
      grant_type: 'authorization_code',
      code: login.code,
      code_verifier: verifier,
    }).toString(),
    'application/x-www-form-urlencoded',
  );
  return token.access_token;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Source area of a script URL: a package name, a src/ folder, or node's internals. */
function areaOf(url: string): string {
  if (!url) {
    return '(native/gc/idle)';
  }
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const src = url.indexOf('/src/');
  if (src >= 0) {
    return (
      url
        .slice(src + 1)
        .split('/')
        .slice(0, -1)
        .join('/') || 'src'
    );
  }
  return url.startsWith('node:') ? url : path.basename(url);
}

function summarise(profile: Profile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) {
      continue;
    }
    const where = frame.url ? `${areaOf(frame.url)}/${path.basename(frame.url)}:${frame.lineNumber + 1}` : '';
    const fn = `${frame.functionName || '(anonymous)'} ${where}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    byArea.set(areaOf(frame.url), (byArea.get(areaOf(frame.url)) ?? 0) + us);
  }
  const print = (title: string, map: Map<string, number>, n: number): void => {
    console.log(title);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) {
      console.log(`  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`);
    }
  };
  print('self time by area:', byArea, 20);
  print('self time by function:', byFunction, 40);
}

interface CpuShares {
  server: number;
  postgres: number;
  generator: number;
}

/** CPU milliseconds used so far by the server, by every PostgreSQL process, and by this process. */
function cpuShares(serverPid: number): CpuShares {
  const tick = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
  const cpuOf = (pid: string): number => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * tick;
  };
  let postgres = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') {
        postgres += cpuOf(pid);
      }
    } catch {
      // The process ended while listed.
    }
  }
  const own = process.cpuUsage();
  return { server: cpuOf(String(serverPid)), postgres, generator: (own.user + own.system) / 1000 };
}

async function main(): Promise<void> {
  const query = arg('query', 'vitals');
  const role = arg('role', 'practitioner');
  const root = path.resolve(arg('root', '.'));
  const seconds = Number(arg('seconds', '15'));
  const connections = Number(arg('connections', '16'));
  const total = Number(process.env.THROUGHPUT_SIZE ?? 50_000);
  const location = { connectionString: process.env.TEST_DATABASE_URL, schema: `bench_throughput_${total}` };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'throughput-profile-'));
  const child = spawn(
    process.execPath,
    [
      '--cpu-prof',
      '--cpu-prof-dir',
      dir,
      '--import',
      'tsx',
      path.resolve('bench/search/throughput-server.ts'),
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      env: {
        ...process.env,
        THROUGHPUT_ROOT: root,
        THROUGHPUT_MODE: 'bloom',
        THROUGHPUT_LOCATION: JSON.stringify(location),
      },
    },
  );
  const first = await new Promise<string>((resolve) =>
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve),
  );
  const { url } = JSON.parse(first) as { url: string };
  const token = await signIn(url, role);
  const patients = datasetShape(total).patients;
  const paths = Array.from({ length: 1000 }, (_, i) => {
    const patient = role === 'patient' ? 'p-7' : `p-${(i * 7919) % patients}`;
    if (query === 'vitals') {
      return `/fhir/R4/Observation?subject=Patient/${patient}&code=${LOINC}|${VITALS[i % VITALS.length].code}&_sort=-date`;
    }
    return query === 'name'
      ? `/fhir/R4/Patient?name=${NAME_PREFIXES[i % NAME_PREFIXES.length]}`
      : `/fhir/R4/Patient/${patient}`;
  });
  let next = 0;
  const cpuBefore = cpuShares(child.pid as number);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        headers: { authorization: `Bearer ${token}` },
        setupRequest: (r: object) => ({ ...r, path: paths[next++ % paths.length] }),
      },
    ],
  });
  console.log(
    `${role} ${query} c${connections}: ${result.requests.average.toFixed(0)} req/s, ` +
      `${result.non2xx + result.errors} errors, load ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
  );
  const cpuAfter = cpuShares(child.pid as number);
  const perRequest = (k: keyof CpuShares): string =>
    ((cpuAfter[k] - cpuBefore[k]) / Math.max(result.requests.total, 1)).toFixed(3);
  console.log(
    `CPU ms per request: server ${perRequest('server')}, PostgreSQL ${perRequest('postgres')}, ` +
      `load generator ${perRequest('generator')}; ${(result.throughput.average / Math.max(result.requests.average, 1)).toFixed(0)} bytes per answer`,
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) {
    throw new Error(`no profile written in ${dir}`);
  }
  console.log(`profile: ${path.join(dir, file)}`);
  summarise(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
