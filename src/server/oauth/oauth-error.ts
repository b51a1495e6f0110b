// OAuth 2.0 errors (RFC 6749 §5.2) in their standard JSON form `{error, error_description}`.
import type { FastifyError, FastifyInstance } from 'fastify';
import { getStatus, OperationOutcomeError, operationOutcomeToString } from '../../fhir';
import { FHIR_JSON } from '../media-types';
import { RequestBodyError } from '../request-bodies';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_token'
  | 'unsupported_response_type'
  | 'server_error';

const STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  invalid_token: 401,
  unsupported_response_type: 400,
  server_error: 500,
};

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
  }

  get status(): number {
    return STATUS[this.error];
  }
}

/** Errors under /oauth2 answer in OAuth's form, whatever threw them. */
export function registerOAuthErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request, reply) => {
    // A refused body is answered as on every other route (request-bodies.ts).
    if (err instanceof RequestBodyError) {
      return reply.status(getStatus(err.outcome)).type(FHIR_JSON).send(err.outcome);
    }
    let oauth: OAuthError;
    if (err instanceof OAuthError) {
      oauth = err;
    } else if (err instanceof OperationOutcomeError) {
      const status = getStatus(err.outcome);
      const code: OAuthErrorCode =
        status === 401 ? 'invalid_token' : status >= 500 ? 'server_error' : 'invalid_request';
      oauth = new OAuthError(code, operationOutcomeToString(err.outcome));
    } else {
      const status = (err as Partial<FastifyError>).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        reply.status(status);
        return reply.send({ error: 'invalid_request', error_description: (err as Error).message });
      }
      request.log.error({ err }, 'OAuth server error');
      oauth = new OAuthError('server_error', 'Internal server error');
    }
    if (oauth.status === 401) {
      reply.header(
        'WWW-Authenticate',
        oauth.error === 'invalid_client' ? 'Basic' : 'Bearer error="invalid_token"',
      );
    }
    // RFC 6749 §5.1: token responses and their errors must not be cached.
    return reply.status(oauth.status).header('Cache-Control', 'no-store').send({
      error: oauth.error,
      error_description: oauth.description,
    });
  });
}
