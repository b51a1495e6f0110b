// HTTP from a chosen loopback source address (127.0.0.x, Node's `localAddress`), so one test can be
// many clients: the server sees each request come from its own address.
import http from 'node:http';

export interface SourcedResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  retryAfter: string | undefined;
}

/** POST a JSON body to `url` from `source` (e.g. '127.0.0.7'), with optional extra headers. */
export function postJsonFrom<T = Record<string, unknown>>(
  source: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<SourcedResponse<T>> {
  const target = new URL(url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: target.pathname + target.search,
        method: 'POST',
        localAddress: source,
        // A fresh connection per request: a kept-alive socket would carry the previous source.
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const retryAfter = response.headers['retry-after'];
          resolve({
            status: response.statusCode ?? 0,
            body: (text ? JSON.parse(text) : {}) as T,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
          });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** The nth test address, 127.0.<block>.<n>: tests pick their own block so they never share one. */
export function loopback(block: number, n: number): string {
  return `127.0.${block}.${n}`;
}
