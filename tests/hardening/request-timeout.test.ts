// A client that trickles a request in is cut off by REQUEST_TIMEOUT (SPEC §7 limits), promptly: it
// gets 408 about when the timeout passes, not up to Node's 30 s check later, and the server keeps
// answering others meanwhile. Real HTTP over a raw socket, both engines.
import net from 'node:net';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';

const TIMEOUT_MS = 1000;

/** Sends the headers and one byte of a 100-byte body, then waits; resolves to what the server sent. */
function trickle(server: TestServer): Promise<{ answer: string; ms: number }> {
  const url = new URL(server.fhirUrl);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST ${url.pathname}Patient HTTP/1.1\r\nHost: ${url.host}\r\n` +
          'Content-Type: application/fhir+json\r\nContent-Length: 100\r\n\r\n{',
      );
    });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve({ answer, ms: performance.now() - started }));
    socket.on('error', reject);
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')));
  });
}

describe.each(databases())('a trickled request on %s', (_, kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { REQUEST_TIMEOUT: String(TIMEOUT_MS) });
  });
  afterAll(() => server.close());

  it('gets 408 within a few seconds of REQUEST_TIMEOUT, and stores nothing', async () => {
    const before = await fetch(`${server.fhirUrl}Patient?_summary=count`).then((r) => r.json());
    const { answer, ms } = await trickle(server);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS);
    // Deadlines are checked every second: well under Node's default 30 s check.
    expect(ms).toBeLessThan(TIMEOUT_MS + 10_000);
    const after = await fetch(`${server.fhirUrl}Patient?_summary=count`).then((r) => r.json());
    expect(after).toEqual(before);
  });
});
