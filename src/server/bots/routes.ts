// Bot operations under /fhir/R4 (SPEC §7 Bot $execute): $deploy by project admins,
// $execute by id or by identifier with the request body as input, JSON, text or any content type.
import type { Bot } from '@medplum/fhirtypes';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, forbidden, notFound, OperationOutcomeError, getStatus } from '../../fhir';
import type { BinaryStorage } from '../binary/storage';
import type { Database } from '../db';
import { FHIR_JSON } from '../media-types';
import { acceptRawBodies } from '../request-bodies';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';
import { ensureBotMembership } from './bot-membership';
import { saveBotCode } from './code-store';
import { executeBot } from './execute';
import { decodeBotInput } from './input';

export interface BotRoutesOptions {
  db: Database;
  storage: BinaryStorage;
  fhirBase: string;
  bodyLimit: number;
  getContext: (request: FastifyRequest) => RepositoryContext;
}

/** Only project admins create, change or deploy bots. */
export function requireBotAdmin(context: RepositoryContext): void {
  const access = context.access;
  if (access && !access.projectAdmin && !access.superAdmin) {
    throw new OperationOutcomeError({
      ...forbidden,
      issue: [
        {
          severity: 'error',
          code: 'forbidden',
          details: { text: 'Only project admins may change or deploy bots' },
        },
      ],
    });
  }
}

async function findBotByIdentifier(repo: Repository, identifier: string | undefined): Promise<Bot> {
  if (!identifier || !identifier.includes('|')) {
    throw new OperationOutcomeError(badRequest('identifier must be system|value', 'identifier'));
  }
  const result = await repo.search<Bot>({
    resourceType: 'Bot',
    filters: [{ code: 'identifier', operator: 'eq', value: identifier }],
    count: 2,
  });
  const bots = result.resources;
  if (bots.length !== 1) {
    throw new OperationOutcomeError(
      bots.length === 0 ? notFound : badRequest(`More than one bot has the identifier ${identifier}`),
    );
  }
  return bots[0];
}

export const botRoutes: FastifyPluginAsync<BotRoutesOptions> = async (app, options) => {
  const { db, storage, fhirBase, getContext } = options;

  // The bot gets the body as received: every content type arrives as bytes and is decoded by type.
  acceptRawBodies(app, options.bodyLimit);

  app.post<{ Params: { id: string } }>('/Bot/:id/$deploy', async (request, reply) => {
    const context = getContext(request);
    requireBotAdmin(context);
    const repo = new Repository(db, context);
    const bot = await repo.readResource<Bot>('Bot', request.params.id);
    const body = decodeBotInput(request.body, request.headers['content-type']);
    const params = body.input as { code?: unknown; filename?: unknown } | undefined;
    if (!params || typeof params !== 'object' || typeof params.code !== 'string' || !params.code.trim()) {
      throw new OperationOutcomeError(
        badRequest('$deploy needs a JSON body with the bot code as a string in code', 'code'),
      );
    }
    const filename = typeof params.filename === 'string' && params.filename ? params.filename : 'index.js';
    const executableCode = await saveBotCode(repo, storage, params.code, filename);
    const updated = (await repo.updateResource<Bot>({ ...bot, executableCode })).resource;
    await ensureBotMembership(db, updated);
    return reply.type(FHIR_JSON).send({
      resourceType: 'OperationOutcome',
      id: 'ok',
      issue: [{ severity: 'information', code: 'informational', details: { text: 'Deployed' } }],
    });
  });

  const execute = async (
    request: FastifyRequest,
    reply: FastifyReply,
    findBot: (repo: Repository) => Promise<Bot>,
  ) => {
    const caller = getContext(request);
    // The caller must be allowed to read the bot: its access policy decides who may run it.
    const bot = await findBot(new Repository(db, caller));
    const { input, contentType } = decodeBotInput(request.body, request.headers['content-type']);
    // Bot.runAsUser: the bot's client acts as the caller, under the caller's policy (Medplum's
    // getBotProjectMembership); otherwise as the bot's own membership.
    const runAs = bot.runAsUser === true ? caller : undefined;
    const result = await executeBot({ db, storage, fhirBase }, { bot, caller, input, contentType, runAs });
    if (!result.ok) {
      return reply
        .status(getStatus(result.outcome) >= 500 ? 400 : getStatus(result.outcome))
        .type(FHIR_JSON)
        .send(result.outcome);
    }
    const { output } = result;
    if (output === undefined || output === null) {
      return reply.status(200).send();
    }
    if (typeof output === 'string') {
      // An Hl7Message answer goes out as HL7 v2 text (Medplum's x-application/hl7-v2+er7).
      return reply.type(result.contentType ?? 'text/plain; charset=utf-8').send(output);
    }
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(output));
  };

  app.post<{ Params: { id: string } }>('/Bot/:id/$execute', (request, reply) =>
    execute(request, reply, (repo) => repo.readResource<Bot>('Bot', request.params.id)),
  );
  app.post<{ Querystring: { identifier?: string } }>('/Bot/$execute', (request, reply) =>
    execute(request, reply, (repo) => findBotByIdentifier(repo, request.query.identifier)),
  );
};
