// Bulk export over HTTP (SPEC §7 "POST {type}/$export or {group}/$export with _type,
// _since, Prefer respond-async"), in the shape Medplum's server answers and its client polls:
// kick-off → 202 + Content-Location …/bulkdata/export/{id}; GET there → 202 with X-Progress while
// running, 200 with the manifest when done; DELETE there cancels. Files are served only to the
// requester, from …/bulkdata/export/{id}/file/{binaryId}.
import crypto from 'node:crypto';
import type { OperationOutcome } from '@medplum/fhirtypes';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isResourceType, notFound, OperationOutcomeError } from '../../fhir';
import type { BinaryStorage } from '../binary/storage';
import type { Database } from '../db';
import { FHIR_JSON } from '../media-types';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';
import { cancelJob, findJob, insertJob } from './job-store';
import type { ExportJob } from './job-store';
import { checkPreferAsync, kickoffParameters, planExport } from './kickoff';
import type { KickoffTarget } from './kickoff';
import { buildManifest, progressText, statusUrl } from './manifest';
import { DEFAULT_EXPORT_SETTINGS, deleteExportFiles, ExportRunner, NDJSON } from './runner';
import type { ExportSettings } from './runner';

export interface ExportRoutesOptions {
  db: Database;
  storage: BinaryStorage;
  /** Absolute URL of the FHIR base, ending in '/'. */
  fhirBase: string;
  getContext: (request: FastifyRequest) => RepositoryContext;
  /** Tests and the benchmark: smaller pages and files, shorter leases. */
  settings?: Partial<ExportSettings>;
}

type Query = Record<string, string | string[] | undefined>;

/** Who a job belongs to: the caller's membership (one user in one project), else the author. */
function ownerOf(context: RepositoryContext): string {
  return context.access?.membership.reference ?? context.author.reference ?? 'system';
}

/** Unknown ids and other people's jobs answer alike: 404, so job ids leak nothing. */
async function ownJob(db: Database, context: RepositoryContext, id: string): Promise<ExportJob> {
  const job = /^[0-9a-f-]{36}$/.test(id) ? await findJob(db, id) : undefined;
  if (!job || job.owner !== ownerOf(context)) {
    throw new OperationOutcomeError(notFound);
  }
  return job;
}

function outcome(
  code: 'informational' | 'exception' | 'not-found',
  text: string,
  diagnostics?: string,
): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: code === 'informational' ? 'information' : 'error',
        code,
        details: { text },
        ...(diagnostics ? { diagnostics } : {}),
      },
    ],
  };
}

export const exportRoutes: FastifyPluginAsync<ExportRoutesOptions> = async (app, options) => {
  const { db, storage, fhirBase, getContext } = options;
  const runner = new ExportRunner(db, storage, app.log, { ...DEFAULT_EXPORT_SETTINGS, ...options.settings });
  app.addHook('onReady', async () => runner.start());
  app.addHook('onClose', async () => runner.stop());

  async function kickoff(request: FastifyRequest, reply: FastifyReply, target: KickoffTarget) {
    checkPreferAsync(request.headers.prefer);
    // A Parameters body, or none (an empty body under a JSON type is none: request-bodies.ts).
    const params = kickoffParameters(request.query as Query, request.body);
    const context = getContext(request);
    const plan = await planExport(new Repository(db, context), target, params);
    const job = await insertJob(db, {
      id: crypto.randomUUID(),
      owner: ownerOf(context),
      context,
      request: new URL(request.url, fhirBase).href,
      ...plan,
    });
    runner.wake();
    const location = statusUrl(fhirBase, job.id);
    return reply
      .status(202)
      .header('Content-Location', location)
      .type(FHIR_JSON)
      .send({ ...outcome('informational', 'Accepted', location), id: 'accepted' });
  }

  const methods: ('GET' | 'POST')[] = ['GET', 'POST'];
  app.route({
    method: methods,
    url: '/$export',
    handler: (req, reply) => kickoff(req, reply, { level: 'system' }),
  });
  app.route({
    method: methods,
    url: '/Patient/$export',
    handler: (req, reply) => kickoff(req, reply, { level: 'patient' }),
  });
  app.route<{ Params: { id: string } }>({
    method: methods,
    url: '/Group/:id/$export',
    handler: (req, reply) => kickoff(req, reply, { level: 'group', target: req.params.id }),
  });
  app.route<{ Params: { resourceType: string } }>({
    method: methods,
    url: '/:resourceType/$export',
    handler: (req, reply) => {
      if (!isResourceType(req.params.resourceType)) {
        throw new OperationOutcomeError(
          outcome('not-found', `Unknown resource type '${req.params.resourceType}'`),
        );
      }
      return kickoff(req, reply, { level: 'type', target: req.params.resourceType });
    },
  });

  app.get<{ Params: { id: string } }>('/bulkdata/export/:id', async (request, reply) => {
    const job = await ownJob(db, getContext(request), request.params.id);
    switch (job.status) {
      case 'accepted':
      case 'in-progress':
        return reply.status(202).header('X-Progress', progressText(job)).header('Retry-After', '1').send();
      case 'completed':
        return reply.type('application/json').send(buildManifest(fhirBase, job));
      case 'error':
        // Bulk Data: a failed export answers 5XX with an OperationOutcome.
        return reply
          .status(500)
          .type(FHIR_JSON)
          .send(outcome('exception', `The export failed: ${job.error ?? 'unknown error'}`));
      default:
        throw new OperationOutcomeError(outcome('not-found', 'This export was cancelled'));
    }
  });

  app.delete<{ Params: { id: string } }>('/bulkdata/export/:id', async (request, reply) => {
    const job = await ownJob(db, getContext(request), request.params.id);
    const files = await cancelJob(db, job.id);
    if (!files) {
      throw new OperationOutcomeError(outcome('not-found', 'This export was already cancelled'));
    }
    // The running job stops at its next page; files already stored go now.
    await deleteExportFiles(db, storage, files);
    return reply.status(202).type(FHIR_JSON).send(outcome('informational', 'Export cancelled'));
  });

  app.get<{ Params: { id: string; binaryId: string } }>(
    '/bulkdata/export/:id/file/:binaryId',
    async (request, reply) => {
      const job = await ownJob(db, getContext(request), request.params.id);
      const file = job.output.find((f) => f.binaryId === request.params.binaryId);
      const content = job.status === 'completed' && file ? await storage.get(file.binaryId) : undefined;
      if (!content) {
        throw new OperationOutcomeError(notFound);
      }
      return reply
        .type(NDJSON)
        .header('Content-Length', String(content.size))
        .header('X-Content-Type-Options', 'nosniff')
        .send(content.stream);
    },
  );
};
