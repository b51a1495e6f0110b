// Every error leaves the API as an OperationOutcome with the status getStatus gives it.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { OperationOutcome } from '@medplum/fhirtypes';
import {
  badRequest,
  getStatus,
  normalizeError,
  notFound,
  OperationOutcomeError,
  payloadTooLarge,
  unsupportedMediaType,
} from '../../fhir';
import { RetryAfterError } from '../retry-after';
import { FHIR_JSON } from '../media-types';

/** Fastify's own errors (body parsing, limits) as outcomes; anything else through normalizeError. */
export function errorToOutcome(err: unknown, bodyLimit: number, contentType?: string): OperationOutcome {
  if (err instanceof OperationOutcomeError) {
    return err.outcome;
  }
  const fastifyError = err as Partial<FastifyError>;
  switch (fastifyError.code) {
    // Fastify refuses a Content-Type it cannot parse before any parser runs (request-bodies.ts
    // refuses well-formed types it does not take, naming the ones it does).
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType(
        `Malformed content type '${(contentType ?? '').slice(0, 200)}': send a media type such as application/fhir+json`,
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge(`Request body is larger than the limit of ${bodyLimit} bytes`);
    default:
      break;
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return badRequest(fastifyError.message ?? 'Bad request');
  }
  return normalizeError(err);
}

/** A 500's diagnostics can carry SQL or file paths: clients get the generic text only, the log gets it all. */
function forClient(outcome: OperationOutcome, status: number): OperationOutcome {
  if (status < 500) {
    return outcome;
  }
  return {
    ...outcome,
    issue: (outcome.issue ?? []).map(({ diagnostics: _hidden, ...issue }) => issue),
  };
}

export function registerErrorHandlers(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((err, request, reply) => {
    const outcome = errorToOutcome(err, bodyLimit, request.headers['content-type']);
    const status = getStatus(outcome);
    // A 503 with Retry-After is a busy server turning work away, logged where it is decided.
    if (status >= 500 && !(err instanceof RetryAfterError)) {
      request.log.error({ err }, 'Internal server error');
    }
    if (err instanceof RetryAfterError) {
      void reply.header('retry-after', String(err.retryAfterSeconds));
    }
    return reply.status(status).type(FHIR_JSON).send(forClient(outcome, status));
  });

  app.setNotFoundHandler((request, reply) => {
    const outcome: OperationOutcome = {
      ...notFound,
      issue: [
        { ...notFound.issue![0], diagnostics: `No route for ${request.method} ${request.url.split('?')[0]}` },
      ],
    };
    return reply.status(404).type(FHIR_JSON).send(outcome);
  });
}
