// A real HTTP proxy in front of the test server that fails on purpose: requests whose path ends with
// a given suffix take the next scripted fault (an error status with headers, a dropped connection, or
// no answer until the test lets go); every other request, and those once the script is spent, reach
// the server unchanged. It records when each matching request arrived.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  { kind: 'status'; status: number; headers?: Record<string, string> } | { kind: 'drop' } | { kind: 'hold' };

export interface FaultProxy {
  /** http://localhost:{port}/ in place of the server's base URL. */
  readonly baseUrl: string;
  /** Arrival times (ms) of the requests whose path ends with the suffix. */
  readonly arrivals: number[];
  /** Paths of every request that passed through. */
  readonly paths: string[];
  /** The next matching requests take these faults, in order. */
  fail(...faults: Fault[]): void;
  close(): Promise<void>;
}

export async function startFaultProxy(targetBaseUrl: string, pathSuffix: string): Promise<FaultProxy> {
  const target = new URL(targetBaseUrl);
  const script: Fault[] = [];
  const arrivals: number[] = [];
  const paths: string[] = [];
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    paths.push(path);
    if (path.endsWith(pathSuffix)) {
      arrivals.push(Date.now());
      const fault = script.shift();
      if (fault?.kind === 'status') {
        req.resume();
        res.writeHead(fault.status, { 'content-type': 'application/fhir+json', ...fault.headers });
        res.end(
          JSON.stringify({
            resourceType: 'OperationOutcome',
            issue: [{ severity: 'error', code: 'transient', details: { text: `HTTP ${fault.status}` } }],
          }),
        );
        return;
      }
      if (fault?.kind === 'drop') {
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'hold') {
        req.resume();
        held.add(res);
        return;
      }
    }
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://localhost:${port}/`,
    arrivals,
    paths,
    fail: (...faults) => script.push(...faults),
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
