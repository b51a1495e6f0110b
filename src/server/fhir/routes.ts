// The FHIR REST API under /fhir/R4/ as one Fastify plugin: routes, JSON body parsing and nothing
// else (security headers, CORS and error handling are the app's, see ../app.ts).
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { OperationOutcomeError, unsupportedMediaType } from '../../fhir';
import type { BinaryUrlSigner } from '../binary/attachment-urls';
import { registerAttachmentSigning } from '../binary/signed-responses';
import type { Database } from '../db';
import type { RepositoryContext, RepositorySettings } from '../repo';
import { parseJsonPatch, Repository, systemContext } from '../repo';
import { processBatch } from './batch';
import { conditionalDeleteInteraction, conditionalUpdateInteraction } from './conditional';
import { systemSearchInteraction } from './system-search';
import { buildCapabilityStatement } from './capability-statement';
import {
  etagOf,
  etagOfVersion,
  lastModifiedOf,
  matchesIfNoneMatch,
  matchesIfNoneMatchVersion,
  parseVersionTag,
  versionUrl,
} from './http-headers';
import type { FhirResult } from './interactions';
import {
  checkUrlResourceType,
  createInteraction,
  deleteInteraction,
  historyInteraction,
  patchInteraction,
  searchInteraction,
  updateInteraction,
  validateInteraction,
  vreadInteraction,
} from './interactions';
import { isLenientHandling } from '../search/request-validation';
import { mayReadBinary } from '../binary/signed-responses';
import { FHIR_JSON, FORM_URLENCODED, JSON_MEDIA_TYPES, JSON_PATCH, mediaTypeOf } from '../media-types';
import { acceptFormBodies } from '../request-bodies';
import type { QueryParams } from './paging';
import type { RequestLimits } from '../input-limits';
import { registerSearchLimits } from './search-limits';
import { currentRequestWait } from '../request-wait';

export interface FhirRoutesOptions {
  db: Database;
  /** Absolute URL of the FHIR base, ending in '/', e.g. http://localhost:8103/fhir/R4/. */
  fhirBase: string;
  bodyLimit: number;
  /** Bounds on batch size and search parameters (MAX_BATCH_ENTRIES, MAX_SEARCH_*). */
  limits: RequestLimits;
  /** Who the request acts as; the identity issue replaces the default system context. */
  getContext?: (request: FastifyRequest) => RepositoryContext;
  /** Signs attachment URLs of readable Binaries in answers; without it they stay as stored. */
  binaryUrls?: BinaryUrlSigner;
  /** Given to every Repository the routes build (e.g. how writes store this server's Binary URLs). */
  repositorySettings?: RepositorySettings;
}

interface TypeParams {
  resourceType: string;
}
interface InstanceParams extends TypeParams {
  id: string;
}
interface VersionParams extends InstanceParams {
  versionId: string;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sendResult(reply: FastifyReply, fhirBase: string, result: FhirResult): FastifyReply {
  if (result.versioned) {
    const etag = etagOf(result.body);
    const lastModified = lastModifiedOf(result.body);
    if (etag) {
      reply.header('ETag', etag);
    }
    if (lastModified) {
      reply.header('Last-Modified', lastModified);
    }
  }
  if (result.location) {
    reply.header('Location', versionUrl(fhirBase, result.body));
  }
  return reply.status(result.status).type(FHIR_JSON).send(result.body);
}

/** The query string exactly as sent (Fastify's parsed query loses the order of repeated keys). */
function rawQuery(request: FastifyRequest): URLSearchParams {
  const url = request.raw.url ?? '';
  const question = url.indexOf('?');
  return new URLSearchParams(question < 0 ? '' : url.slice(question + 1));
}

/** POST and PUT take FHIR JSON; PATCH takes a JSON Patch. A mix-up is a 415, not a guess. */
function requireMediaType(request: FastifyRequest, allowed: readonly string[]): void {
  const mediaType = mediaTypeOf(header(request, 'content-type'));
  if (!mediaType || !allowed.includes(mediaType)) {
    throw new OperationOutcomeError(
      unsupportedMediaType(`Content-Type must be ${allowed.join(' or ')}, got '${mediaType ?? 'none'}'`),
    );
  }
}

const RESOURCE_TYPES = JSON_MEDIA_TYPES;
const PATCH_TYPES = [JSON_PATCH, 'application/json'];

export const fhirRoutes: FastifyPluginAsync<FhirRoutesOptions> = async (app: FastifyInstance, options) => {
  const { db, fhirBase } = options;
  const getContext = options.getContext ?? (() => systemContext());
  const repoFor = (request: FastifyRequest): Repository =>
    new Repository(db, getContext(request), undefined, options.repositorySettings);
  if (options.binaryUrls) {
    registerAttachmentSigning(app, options.binaryUrls, mayReadBinary(repoFor));
  }

  // JSON bodies are parsed for the whole server (request-bodies.ts); only POST _search takes a form.
  acceptFormBodies(app, options.bodyLimit);
  // Every route here: too many parameters or values, or a control character in one, is a 400.
  registerSearchLimits(app, options.limits);

  // Built once: it depends only on the definitions and the base URL.
  const capabilityStatement = buildCapabilityStatement(fhirBase, options.limits);
  app.get('/metadata', async (_request, reply) => reply.type(FHIR_JSON).send(capabilityStatement));

  app.post('/', async (request, reply) => {
    requireMediaType(request, RESOURCE_TYPES);
    const bundle = await processBatch(repoFor(request), fhirBase, request.body, {
      maxEntries: options.limits.maxBatchEntries,
    });
    // An entry refused for a busy database (request-wait.ts) refuses the rest too, and a refused
    // request has written nothing: the whole answer is the 503.
    const refusal = currentRequestWait()?.refusal;
    if (refusal) throw refusal;
    return reply.status(200).type(FHIR_JSON).send(bundle);
  });

  // Search: GET with the query string, POST _search with a form body (FHIR R4 §3.1.0.1).
  // The raw query string is read as is, so repeated keys and their order are kept.
  app.get<{ Params: TypeParams }>('/:resourceType', async (request, reply) =>
    sendResult(
      reply,
      fhirBase,
      await searchInteraction(repoFor(request), fhirBase, request.params.resourceType, rawQuery(request), {
        lenient: isLenientHandling(header(request, 'prefer')),
      }),
    ),
  );

  app.get('/', async (request, reply) =>
    sendResult(
      reply,
      fhirBase,
      await systemSearchInteraction(repoFor(request), fhirBase, rawQuery(request), {
        lenient: isLenientHandling(header(request, 'prefer')),
      }),
    ),
  );

  app.post<{ Params: TypeParams }>('/:resourceType/_search', async (request, reply) => {
    const query = rawQuery(request);
    if (request.body !== undefined) {
      requireMediaType(request, [FORM_URLENCODED]);
      for (const [key, value] of request.body as URLSearchParams) {
        query.append(key, value);
      }
    }
    return sendResult(
      reply,
      fhirBase,
      await searchInteraction(repoFor(request), fhirBase, request.params.resourceType, query, {
        lenient: isLenientHandling(header(request, 'prefer')),
      }),
    );
  });

  app.post<{ Params: TypeParams }>('/:resourceType', async (request, reply) => {
    requireMediaType(request, RESOURCE_TYPES);
    const result = await createInteraction(
      repoFor(request),
      request.params.resourceType,
      request.body,
      header(request, 'if-none-exist'),
    );
    return sendResult(reply, fhirBase, result);
  });

  // Conditional update and delete (FHIR R4 §3.1.0.4.3, §3.1.0.7.1): the query string is the match.
  app.put<{ Params: TypeParams }>('/:resourceType', async (request, reply) => {
    requireMediaType(request, RESOURCE_TYPES);
    const { resourceType } = request.params;
    const ifMatch = parseVersionTag(header(request, 'if-match'));
    const criteria = rawQuery(request).toString();
    return sendResult(
      reply,
      fhirBase,
      await conditionalUpdateInteraction(repoFor(request), resourceType, criteria, request.body, ifMatch),
    );
  });

  app.delete<{ Params: TypeParams }>('/:resourceType', async (request, reply) =>
    sendResult(
      reply,
      fhirBase,
      await conditionalDeleteInteraction(
        repoFor(request),
        request.params.resourceType,
        rawQuery(request).toString(),
      ),
    ),
  );

  app.get<{ Params: TypeParams; Querystring: QueryParams }>(
    '/:resourceType/_history',
    async (request, reply) =>
      sendResult(
        reply,
        fhirBase,
        await historyInteraction(
          repoFor(request),
          fhirBase,
          request.params.resourceType,
          undefined,
          request.query,
        ),
      ),
  );

  app.post<{ Params: TypeParams }>('/:resourceType/$validate', async (request, reply) => {
    requireMediaType(request, RESOURCE_TYPES);
    return sendResult(
      reply,
      fhirBase,
      await validateInteraction(repoFor(request), request.params.resourceType, request.body),
    );
  });

  // The read interaction (batch.ts has it as readInteraction) sending the stored JSON text as is:
  // a cached version is neither parsed nor serialized again.
  app.get<{ Params: InstanceParams }>('/:resourceType/:id', async (request, reply) => {
    const { resourceType, id } = request.params;
    checkUrlResourceType(resourceType);
    const stored = await repoFor(request).readResourceJson(resourceType, id);
    const etag = etagOfVersion(stored.versionId);
    if (matchesIfNoneMatchVersion(header(request, 'if-none-match'), stored.versionId)) {
      return reply.status(304).header('ETag', etag).send();
    }
    if (etag) {
      reply.header('ETag', etag);
    }
    if (stored.lastModified) {
      reply.header('Last-Modified', stored.lastModified);
    }
    return reply.status(200).type(FHIR_JSON).send(stored.json);
  });

  app.put<{ Params: InstanceParams }>('/:resourceType/:id', async (request, reply) => {
    requireMediaType(request, RESOURCE_TYPES);
    const { resourceType, id } = request.params;
    const ifMatch = parseVersionTag(header(request, 'if-match'));
    return sendResult(
      reply,
      fhirBase,
      await updateInteraction(repoFor(request), resourceType, id, request.body, ifMatch),
    );
  });

  app.patch<{ Params: InstanceParams }>('/:resourceType/:id', async (request, reply) => {
    requireMediaType(request, PATCH_TYPES);
    const { resourceType, id } = request.params;
    const ifMatch = parseVersionTag(header(request, 'if-match'));
    const patch = parseJsonPatch(request.body);
    return sendResult(
      reply,
      fhirBase,
      await patchInteraction(repoFor(request), resourceType, id, patch, ifMatch),
    );
  });

  app.delete<{ Params: InstanceParams }>('/:resourceType/:id', async (request, reply) => {
    const { resourceType, id } = request.params;
    const ifMatch = parseVersionTag(header(request, 'if-match'));
    return sendResult(reply, fhirBase, await deleteInteraction(repoFor(request), resourceType, id, ifMatch));
  });

  app.get<{ Params: InstanceParams; Querystring: QueryParams }>(
    '/:resourceType/:id/_history',
    async (request, reply) => {
      const { resourceType, id } = request.params;
      return sendResult(
        reply,
        fhirBase,
        await historyInteraction(repoFor(request), fhirBase, resourceType, id, request.query),
      );
    },
  );

  app.get<{ Params: VersionParams }>('/:resourceType/:id/_history/:versionId', async (request, reply) => {
    const { resourceType, id, versionId } = request.params;
    const result = await vreadInteraction(repoFor(request), resourceType, id, versionId);
    if (matchesIfNoneMatch(header(request, 'if-none-match'), result.body)) {
      return reply.status(304).header('ETag', etagOf(result.body)).send();
    }
    return sendResult(reply, fhirBase, result);
  });
};
