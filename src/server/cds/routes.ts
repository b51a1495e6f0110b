// CDS Hooks (Medplum conformance; SPEC §6 roles, §7 FHIR calls: Bots, §8 errors):
// /cds-services, as Medplum's server answers MedplumClient.getCdsServices and callCdsService. A CDS
// service is a Bot of the caller's project with a `cdsService` (hook, title, description,
// usageRequirements, prefetch as key/query pairs).
//
// GET /cds-services: discovery, {services: [...]}, the bots the caller's own search finds (a caller
//   who may not read bots, such as a patient under the demo policy, gets an empty list).
// POST /cds-services/{id}: the bot, read as the caller (unknown or unreadable: 404; a bot without a
//   cdsService: 404), runs in the QuickJS sandbox with the CDS request as event.input and acting as
//   the caller, as Medplum runs it; its return value (the cards) is the answer. A failed run is a 400
//   OperationOutcome saying what stopped it.
//
// Kept differences, on purpose: the request body is checked at the edge (a JSON object with the
// service's hook, a hookInstance and a context object, CDS Hooks §"HTTP Request"), where Medplum
// passes anything to the bot; a bot without cdsService answers a 404 OperationOutcome, not a bare 404.
import type { Bot } from '@medplum/fhirtypes';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { allOk, badRequest, notFound, OperationOutcomeError, unsupportedMediaType } from '../../fhir';
import type { ServerServices } from '../services';
import { requireAuth } from '../auth/authenticate';
import type { BinaryStorage } from '../binary/storage';
import { executeBot } from '../bots/execute';
import type { Database } from '../db';
import { Repository, systemContext } from '../repo';
import type { RepositoryContext } from '../repo';

export interface CdsRoutesOptions {
  deps: ServerServices;
  db: Database;
  storage: BinaryStorage;
  fhirBase: string;
  bodyLimit: number;
  /** Tests only: the caller without a token (as buildServer's getContext). */
  getContext?: (request: FastifyRequest) => RepositoryContext;
}

/** The CDS Hooks spec has no paging for discovery; Medplum lists up to 100 services. */
export const MAX_CDS_SERVICES = 100;

interface CdsService {
  id: string;
  hook: string;
  title?: string;
  description?: string;
  usageRequirements?: string;
  prefetch?: Record<string, string>;
}

function describe(bot: Bot): CdsService {
  const cds = bot.cdsService;
  const prefetch = cds?.prefetch?.filter((entry) => entry.key && entry.query);
  return {
    id: bot.id as string,
    hook: cds?.hook as string,
    ...(cds?.title ? { title: cds.title } : {}),
    ...(cds?.description ? { description: cds.description } : {}),
    ...(cds?.usageRequirements ? { usageRequirements: cds.usageRequirements } : {}),
    ...(prefetch && prefetch.length > 0
      ? { prefetch: Object.fromEntries(prefetch.map(({ key, query }) => [key, query])) }
      : {}),
  };
}

/** The body of a CDS call (CDS Hooks 2.0 "HTTP Request"), refused precisely when it is not one. */
export function parseCdsRequest(body: unknown, contentType: string | undefined, hook: string): unknown {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw new OperationOutcomeError(
      badRequest('A CDS service call needs a JSON body with hook, hookInstance and context'),
    );
  }
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new OperationOutcomeError(
      unsupportedMediaType(`A CDS service call is JSON (application/json), not '${type || 'no type'}'`),
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new OperationOutcomeError(badRequest('The body of a CDS service call is not valid JSON'));
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new OperationOutcomeError(badRequest('The body of a CDS service call must be a JSON object'));
  }
  const request = parsed as Record<string, unknown>;
  if (typeof request.hook !== 'string' || !request.hook) {
    throw new OperationOutcomeError(badRequest('hook is required and must be a string', 'hook'));
  }
  if (request.hook !== hook) {
    throw new OperationOutcomeError(
      badRequest(`This CDS service answers the hook '${hook}', not '${request.hook}'`, 'hook'),
    );
  }
  if (typeof request.hookInstance !== 'string' || !request.hookInstance) {
    throw new OperationOutcomeError(
      badRequest('hookInstance is required and must be a string', 'hookInstance'),
    );
  }
  const isObject = (value: unknown) => !!value && typeof value === 'object' && !Array.isArray(value);
  if (!isObject(request.context)) {
    throw new OperationOutcomeError(badRequest('context is required and must be an object', 'context'));
  }
  if (request.prefetch !== undefined && !isObject(request.prefetch)) {
    throw new OperationOutcomeError(badRequest('prefetch must be an object', 'prefetch'));
  }
  return request;
}

export const cdsRoutes: FastifyPluginAsync<CdsRoutesOptions> = async (app, options) => {
  const { deps, db, storage, fhirBase, getContext } = options;
  const contextOf = async (request: FastifyRequest) =>
    getContext ? getContext(request) : (await requireAuth(deps, request)).context;

  // Authenticated before the body is read, as the FHIR API: an anonymous caller learns nothing.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS' && !getContext) {
      reply.header('WWW-Authenticate', 'Bearer');
      await requireAuth(deps, request);
    }
  });
  // The body reaches the route as bytes, so a malformed one is refused there with what is wrong.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: options.bodyLimit }, (_request, body, done) =>
    done(null, body),
  );

  app.get('/', async (request, reply) => {
    const repo = new Repository(db, await contextOf(request));
    const result = await repo.search<Bot>({
      resourceType: 'Bot',
      filters: [{ code: 'cds-hook', operator: 'missing', value: 'false' }],
      count: MAX_CDS_SERVICES,
    });
    return reply.type('application/json; charset=utf-8').send({ services: result.resources.map(describe) });
  });

  app.post<{ Params: { id: string } }>('/:id', async (request, reply) => {
    const caller = await contextOf(request);
    // Read as the caller: a bot she may not read is a 404, exactly as a read.
    const visible = await new Repository(db, caller).readResource<Bot>('Bot', request.params.id);
    // Then whole, as the server reads it (a policy may hide fields, e.g. the code, from the caller).
    const bot = await new Repository(db, systemContext(visible.meta?.project)).readResource<Bot>(
      'Bot',
      visible.id as string,
    );
    if (!bot.cdsService?.hook) {
      throw new OperationOutcomeError({
        ...notFound,
        issue: [
          { severity: 'error', code: 'not-found', details: { text: `Bot/${bot.id} is not a CDS service` } },
        ],
      });
    }
    const input = parseCdsRequest(request.body, request.headers['content-type'], bot.cdsService.hook);
    const result = await executeBot(
      { db, storage, fhirBase },
      { bot, caller, input, contentType: 'application/json', runAs: caller },
    );
    if (!result.ok) {
      return reply.status(400).type('application/json; charset=utf-8').send(result.outcome);
    }
    // Medplum's answer for a bot that returns nothing is an OperationOutcome "All OK".
    const output = result.output === undefined || result.output === null ? allOk : result.output;
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(output));
  });
};
