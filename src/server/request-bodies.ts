// Request bodies for the whole API, decided here once, as Medplum's server does app-wide:
// JSON under every JSON media type on every route (charset and other parameters allowed); forms,
// text and raw bytes only in the route groups that take them (they call the accept* functions
// below); any other type is a 415 that names the type received and the types this route accepts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, OperationOutcomeError, unsupportedMediaType } from '../fhir';
import { jsonLimitProblem } from './input-limits';
import type { InputLimits } from './input-limits';
import { FORM_URLENCODED, JSON_BODY_TYPES, TEXT_PLAIN } from './media-types';

/**
 * A body refused before any route saw it. Route groups with their own error format (oauth2)
 * still answer these as OperationOutcomes, so every route says the same about a bad body.
 */
export class RequestBodyError extends OperationOutcomeError {}

/** The media types a route's context parses, for the 415's text. */
function acceptedTypes(request: FastifyRequest): string[] {
  const types: string[] = [...JSON_BODY_TYPES];
  for (const optional of [FORM_URLENCODED, TEXT_PLAIN]) {
    if (request.server.hasContentTypeParser(optional)) {
      types.push(optional);
    }
  }
  return types;
}

function unsupported(request: FastifyRequest): RequestBodyError {
  const received = request.headers['content-type']?.trim().slice(0, 200);
  const accepted = acceptedTypes(request);
  const list = `${accepted.slice(0, -1).join(', ')} or ${accepted[accepted.length - 1]}`;
  return new RequestBodyError(
    unsupportedMediaType(`Unsupported content type ${received ? `'${received}'` : '(none)'}: send ${list}`),
  );
}

/** Before any route group registers: its parsers are inherited by every group. */
export function registerRequestBodies(app: FastifyInstance, limits: InputLimits): void {
  // Fastify's own defaults (application/json only, text/plain everywhere) give way to ours.
  app.removeAllContentTypeParsers();
  // An empty body is no body: a bodiless POST under a JSON type (e.g. $export) is not an error.
  app.addContentTypeParser([...JSON_BODY_TYPES], { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      done(new RequestBodyError(badRequest(`Malformed JSON: ${(err as Error).message}`)), undefined);
      return;
    }
    // Depth, sizes and characters are refused here, so no route can store or recurse into them.
    const problem = jsonLimitProblem(value, limits);
    if (problem) {
      done(new RequestBodyError(badRequest(problem)), undefined);
      return;
    }
    done(null, value);
  });
  // The body is not read: refusing it needs only its type. A request without a body (a DELETE or a
  // bodiless POST that names a type anyway) has nothing to refuse.
  app.addContentTypeParser('*', (request, _payload, done) => {
    const empty =
      request.headers['content-length'] === '0' && request.headers['transfer-encoding'] === undefined;
    // A path no route serves answers 404, whatever its body.
    if (empty || request.is404) {
      done(null, undefined);
      return;
    }
    done(unsupported(request), undefined);
  });
}

/** Form bodies as URLSearchParams (repeated keys and their order kept) in this route group. */
export function acceptFormBodies(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser(FORM_URLENCODED, { parseAs: 'string', bodyLimit }, (_request, body, done) =>
    done(null, new URLSearchParams(body as string)),
  );
}

/** text/plain bodies as strings in this route group. */
export function acceptTextBodies(app: FastifyInstance): void {
  app.addContentTypeParser(TEXT_PLAIN, { parseAs: 'string' }, (_request, body, done) => done(null, body));
}

/**
 * Key-value values: text/plain as a string, any other body as bytes, so the route refuses it as
 * Medplum's keyvalue/v1 does ('Invalid value type', 400) rather than with a 415.
 */
export function acceptTextValueBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  acceptTextBodies(app);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}

/** Every body as the bytes received, whatever its type, in this route group (Binary, Bot $execute). */
export function acceptRawBodies(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
}
