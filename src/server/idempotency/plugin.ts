// Idempotency-Key on POST (writes are never duplicated by a retry).
// A POST to the FHIR API (create, batch/transaction, operations), admin/ or email/ that carries
// `Idempotency-Key` is handled once per caller and key: a retry with the same body within the window
// gets the first response again (with `Idempotent-Replayed: true`) and writes nothing; the same key
// with another body is a 422; a retry while the first is still running is a 409. Hooks on the app,
// so no route needs to know about it.
import crypto from 'node:crypto';
import type { OperationOutcome } from '@medplum/fhirtypes';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, conflict, OperationOutcomeError } from '../../fhir';
import type { ServerServices } from '../services';
import { requireAuth } from '../auth/authenticate';
import { FHIR_JSON } from '../fhir/media-types';
import { claimKey, deleteExpiredKeys, recordResponse, releaseKey } from './store';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const MAX_KEY_LENGTH = 255;
/** Printable ASCII without spaces, as the IETF Idempotency-Key draft's examples use. */
const KEY_PATTERN = /^[\x21-\x7e]+$/;
/** Paths whose POSTs honour the header: the FHIR API and the platform's admin and email calls. */
const IDEMPOTENT_PREFIXES = ['/fhir/R4', '/admin/', '/email/'];
/** Response headers that describe the result and are replayed with it. */
const REPLAYED_HEADERS = ['content-type', 'location', 'content-location', 'etag', 'last-modified'];
/** Outcomes a retry might change are not kept: the retry runs again. */
const NOT_KEPT = new Set([401, 408, 429]);
/** Expired keys are swept at most this often. */
const SWEEP_INTERVAL_MS = 60_000;

export interface IdempotencyOptions {
  deps: ServerServices;
  /** How long a key is remembered, in seconds (IDEMPOTENCY_WINDOW). */
  windowSeconds: number;
}

interface Claimed {
  owner: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request claimed an Idempotency-Key: its response is recorded for retries. */
    bloomIdempotency: Claimed | null;
  }
}

export const keyMismatch: OperationOutcome = {
  resourceType: 'OperationOutcome',
  issue: [
    {
      severity: 'error',
      code: 'business-rule',
      details: { text: 'Idempotency-Key was already used for a different request' },
    },
  ],
};

function readKey(request: FastifyRequest): string | undefined {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) {
    return undefined;
  }
  if (Array.isArray(raw) || raw.length === 0 || raw.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(raw)) {
    throw new OperationOutcomeError(
      badRequest(`Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} printable characters, given once`),
    );
  }
  return raw;
}

function appliesTo(request: FastifyRequest): boolean {
  return request.method === 'POST' && IDEMPOTENT_PREFIXES.some((prefix) => request.url.startsWith(prefix));
}

/** The same method, URL and body give the same hash; the parsed body is hashed in its JSON form. */
function hashRequest(request: FastifyRequest): string {
  const body = request.body;
  const text =
    typeof body === 'string'
      ? body
      : Buffer.isBuffer(body)
        ? body.toString('base64')
        : JSON.stringify(body ?? null);
  return crypto.createHash('sha256').update(`${request.method} ${request.url}\n`).update(text).digest('hex');
}

/** The caller a key belongs to: one membership (a person in one project, or a client application). */
async function ownerOf(deps: ServerServices, request: FastifyRequest): Promise<string | undefined> {
  const auth =
    request.bloomAuth ?? (request.headers.authorization ? await requireAuth(deps, request) : undefined);
  // Anonymous requests are refused by their routes; tests' system context has no caller to key by.
  return auth ? `ProjectMembership/${auth.membership.id}` : undefined;
}

function replayHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (typeof value === 'string' || typeof value === 'number') {
      headers[name] = String(value);
    }
  }
  return headers;
}

export function registerIdempotency(app: FastifyInstance, { deps, windowSeconds }: IdempotencyOptions): void {
  const db = deps.db;
  let lastSweep = 0;
  app.decorateRequest('bloomIdempotency', null);

  // preHandler: after authentication (onRequest) and body parsing, before any route writes.
  app.addHook('preHandler', async (request, reply) => {
    if (!appliesTo(request)) {
      return;
    }
    const key = readKey(request);
    if (key === undefined) {
      return;
    }
    const owner = await ownerOf(deps, request);
    if (!owner) {
      return;
    }
    if (Date.now() - lastSweep > SWEEP_INTERVAL_MS) {
      lastSweep = Date.now();
      await deleteExpiredKeys(db, windowSeconds);
    }
    const claim = await claimKey(db, owner, key, hashRequest(request), windowSeconds);
    switch (claim.kind) {
      case 'claimed':
        request.bloomIdempotency = { owner, key };
        return;
      case 'different-request':
        return reply.status(422).type(FHIR_JSON).send(keyMismatch);
      case 'in-progress':
        throw new OperationOutcomeError(
          conflict('A request with this Idempotency-Key is still being processed: retry later'),
        );
      case 'replay':
        return reply
          .status(claim.response.status)
          .headers(claim.response.headers)
          .header(REPLAYED_HEADER, 'true')
          .send(claim.response.body);
    }
  });

  // onSend runs for every answer, errors included, and also when the client has gone away meanwhile.
  app.addHook('onSend', async (request, reply, payload) => {
    const claimed = request.bloomIdempotency;
    if (!claimed) {
      return payload;
    }
    request.bloomIdempotency = null;
    const status = reply.statusCode;
    const keep = status < 500 && !NOT_KEPT.has(status) && (typeof payload === 'string' || payload == null);
    if (keep) {
      await recordResponse(db, claimed.owner, claimed.key, {
        status,
        headers: replayHeaders(reply),
        body: (payload as string | null | undefined) ?? '',
      });
    } else {
      await releaseKey(db, claimed.owner, claimed.key);
    }
    return payload;
  });
}
