// keyvalue/v1/{key} (issue #5, SPEC §7 "other platform calls"): GET the value as text/plain, PUT a
// text/plain value (204), DELETE it (204); each signed-in user (or client application) has their
// own keys. Medplum's client calls these as medplum.keyValue.get/set/delete.
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { OperationOutcomeError, payloadTooLarge, unsupportedMediaType } from '../../fhir';
import type { AuthDeps } from '../auth/auth-deps';
import type { AuthState } from '../auth/authenticate';
import { requireAuth } from '../auth/authenticate';
import { mediaTypeOf, TEXT_PLAIN } from '../fhir/media-types';
import { acceptTextBodies } from '../request-bodies';
import { checkKey, checkValue, deleteValue, getValue, MAX_VALUE_BYTES, setValue } from './store';

export interface KeyValueRoutesOptions {
  deps: AuthDeps;
}

interface KeyParams {
  key: string;
}

/** Whose keys these are: the signed-in person, or the client application acting for itself. */
function ownerOf(auth: AuthState): string {
  if (auth.user) {
    return `User/${auth.user.id}`;
  }
  return `ClientApplication/${auth.client?.id}`;
}

export const keyValueRoutes: FastifyPluginAsync<KeyValueRoutesOptions> = async (app, { deps }) => {
  // Values are text/plain, as Medplum's keyvalue/v1 takes them (JSON is parsed, then refused below).
  acceptTextBodies(app);
  // A body over the value limit is refused while it is read, with this route's own limit in the text.
  app.setErrorHandler((err: FastifyError, _request, _reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      throw new OperationOutcomeError(payloadTooLarge(`Value must be at most ${MAX_VALUE_BYTES} bytes`));
    }
    throw err;
  });

  app.get<{ Params: KeyParams }>('/:key', async (request, reply) => {
    const auth = await requireAuth(deps, request);
    checkKey(request.params.key);
    const value = await getValue(deps.db, ownerOf(auth), request.params.key);
    return reply.status(200).type('text/plain; charset=utf-8').send(value);
  });

  app.put<{ Params: KeyParams }>('/:key', { bodyLimit: MAX_VALUE_BYTES }, async (request, reply) => {
    const auth = await requireAuth(deps, request);
    checkKey(request.params.key);
    const mediaType = mediaTypeOf(request.headers['content-type']);
    if (mediaType !== TEXT_PLAIN || typeof request.body !== 'string') {
      throw new OperationOutcomeError(
        unsupportedMediaType(`Content-Type must be ${TEXT_PLAIN}, got '${mediaType ?? 'none'}'`),
      );
    }
    checkValue(request.body);
    await setValue(deps.db, ownerOf(auth), request.params.key, request.body);
    return reply.status(204).send();
  });

  app.delete<{ Params: KeyParams }>('/:key', async (request, reply) => {
    const auth = await requireAuth(deps, request);
    checkKey(request.params.key);
    await deleteValue(deps.db, ownerOf(auth), request.params.key);
    return reply.status(204).send();
  });
};
