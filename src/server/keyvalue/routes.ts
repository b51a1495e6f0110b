// keyvalue/v1/{key}: GET the value as text/plain (204 No Content when the key is not set), PUT a
// text/plain value (204), DELETE it (204); each signed-in user (or client application) has their
// own keys. Medplum's client calls these as medplum.keyValue.get/set/delete.
//
// The same keys, values and answers as Medplum's key-value API (see ./store
// for the rules), so Bloom's own tests catch an app that would fail on a Medplum server. Kept
// differences, on purpose: errors are OperationOutcome JSON (ARCHITECTURE.md conventions; Medplum
// sends the same text as a bare body, and both clients read the same message from either); GET
// answers text/plain, not the text/html Medplum's Express sends by default, so a stored value is
// never served as a page; an unset key is 204 No Content, not Medplum's 404 (the app reads keys
// nobody has set yet on every start, and a 404 is a console error in every browser; Medplum's client
// reads 204 as undefined, the type its keyValue.get declares, where it throws on a 404); keys belong
// to the user (Medplum: the project membership); a body over 100 KiB is a 413 while it is read, like
// Express's default text limit.
import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { notFound, OperationOutcomeError, payloadTooLarge } from '../../fhir';
import type { ServerServices } from '../services';
import type { AuthState } from '../auth/authenticate';
import { requireAuth } from '../auth/authenticate';
import { mediaTypeOf, TEXT_PLAIN } from '../media-types';
import { acceptTextValueBodies } from '../request-bodies';
import { checkKey, checkValue, deleteValue, getValue, setValue } from './store';

export interface KeyValueRoutesOptions {
  deps: ServerServices;
}

/** The most a PUT body may be before it is refused unread (Express's default text body limit). */
export const MAX_BODY_BYTES = 100 * 1024;

/** Whose keys these are: the signed-in person, or the client application acting for itself. */
function ownerOf(auth: AuthState): string {
  if (auth.user) {
    return `User/${auth.user.id}`;
  }
  return `ClientApplication/${auth.client?.id}`;
}

/**
 * The key of keyvalue/v1/{key}. The route is a wildcard so keys of any length reach the key check
 * (a named parameter stops at the router's 100 characters with a 414). A raw '/' or no key at all
 * names no key route, a 404 as in Medplum; an encoded one ('%2F') is a key, and an invalid one.
 */
function keyOf(request: FastifyRequest<{ Params: { '*': string } }>): string {
  const path = request.url.split('?', 1)[0];
  // The route's own URL is '<prefix>/*': what follows its prefix in the path is the raw key.
  const prefix = (request.routeOptions.url ?? '/*').slice(0, -1);
  const raw = path.slice(prefix.length);
  if (raw === '' || raw.includes('/')) {
    throw new OperationOutcomeError(notFound);
  }
  const key = request.params['*'];
  checkKey(key);
  return key;
}

type KeyRequest = FastifyRequest<{ Params: { '*': string } }>;

export const keyValueRoutes: FastifyPluginAsync<KeyValueRoutesOptions> = async (app, { deps }) => {
  // A text/plain body is the value; any other is refused by the route as Medplum refuses it.
  acceptTextValueBodies(app);
  // A body over the limit is refused while it is read.
  app.setErrorHandler((err: FastifyError, _request, _reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      throw new OperationOutcomeError(payloadTooLarge('Value too long'));
    }
    throw err;
  });

  app.get('/*', async (request: KeyRequest, reply) => {
    const auth = await requireAuth(deps, request);
    const key = keyOf(request);
    const value = await getValue(deps.db, ownerOf(auth), key);
    if (value === undefined) {
      return reply.status(204).send();
    }
    return reply
      .status(200)
      .type('text/plain; charset=utf-8')
      .header('X-Content-Type-Options', 'nosniff')
      .send(value);
  });

  app.put('/*', { bodyLimit: MAX_BODY_BYTES }, async (request: KeyRequest, reply) => {
    const auth = await requireAuth(deps, request);
    const key = keyOf(request);
    const value = mediaTypeOf(request.headers['content-type']) === TEXT_PLAIN ? request.body : undefined;
    checkValue(value);
    await setValue(deps.db, ownerOf(auth), key, value);
    return reply.status(204).send();
  });

  app.delete('/*', async (request: KeyRequest, reply) => {
    const auth = await requireAuth(deps, request);
    await deleteValue(deps.db, ownerOf(auth), keyOf(request));
    return reply.status(204).send();
  });
};
