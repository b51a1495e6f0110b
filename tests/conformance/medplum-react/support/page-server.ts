// Serves the built medplum-react page from its own origin (another port than Bloom's API and app), so
// every API call the components make is a cross-origin request under Bloom's CORS rules, as it is for
// a Medplum app hosted elsewhere. /config.json gives the page the API's base URL; any other path
// without a file is the page itself (its path chooses the component).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { findTestPort } from '../../../support/test-port';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface PageServer {
  /** The page's origin, e.g. http://127.0.0.1:40123 */
  readonly origin: string;
  /** Sets the API base URL that /config.json gives the page. */
  setApiBaseUrl(url: string): void;
  close(): Promise<void>;
}

export async function startPageServer(dir: string): Promise<PageServer> {
  const host = '127.0.0.1';
  const port = await findTestPort(host);
  let apiBaseUrl = '';
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://page').pathname;
    if (pathname === '/config.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ baseUrl: apiBaseUrl }));
      return;
    }
    const file = path.join(dir, path.normalize(pathname));
    const found = file.startsWith(dir + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile();
    const served = found ? file : path.join(dir, 'index.html');
    response.writeHead(200, { 'content-type': types[path.extname(served)] ?? 'application/octet-stream' });
    fs.createReadStream(served).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    origin: `http://${host}:${port}`,
    setApiBaseUrl(url) {
      apiBaseUrl = url;
    },
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
