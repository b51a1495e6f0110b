// FHIR operations as their own plugin under /fhir/R4 (next to src/server/fhir, whose
// generic /:resourceType/:id routes these static paths take precedence over): Patient $everything and
// $summary, ValueSet $expand, StructureDefinition $expand-profile, and scheduling (Schedule $find,
// Appointment $find, $hold and $book; PlanDefinition $apply). Authentication is the app's FHIR hook.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { BinaryUrlSigner } from '../binary/attachment-urls';
import { mayReadBinary, registerAttachmentSigning } from '../binary/signed-responses';
import type { Database } from '../db';
import { FHIR_JSON } from '../media-types';
import type { QueryParams } from '../fhir/paging';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';
import { patientEverything } from './everything';
import { parseSummaryRequest, patientSummary } from './patient-summary';
import { expandProfile } from './expand-profile';
import { expandValueSetOperation } from './value-set-expand';
import { findAppointments } from './appointment-find';
import { bookOperation } from './appointment-book';
import { holdOperation } from './appointment-hold';
import { findScheduleSlots } from './schedule-find';
import { planDefinitionApplyOperation } from './plan-definition-apply';

export interface FhirOperationRoutesOptions {
  db: Database;
  /** Absolute URL of the FHIR base, ending in '/'. */
  fhirBase: string;
  /** Who the request acts as (the same function the REST routes use). */
  getContext: (request: FastifyRequest) => RepositoryContext;
  /** Signs attachment URLs of readable Binaries in answers ($everything). */
  binaryUrls?: BinaryUrlSigner;
}

export const fhirOperationRoutes: FastifyPluginAsync<FhirOperationRoutesOptions> = async (app, options) => {
  const { db, fhirBase, getContext } = options;
  if (options.binaryUrls) {
    const repoFor = (request: FastifyRequest) => new Repository(db, getContext(request));
    registerAttachmentSigning(app, options.binaryUrls, mayReadBinary(repoFor));
  }

  app.get<{ Params: { id: string }; Querystring: QueryParams }>(
    '/Patient/:id/$everything',
    async (request, reply) => {
      const bundle = await patientEverything(
        db,
        getContext(request),
        fhirBase,
        request.params.id,
        request.query,
      );
      return reply.type(FHIR_JSON).send(bundle);
    },
  );

  // GET as MedplumClient.readPatientSummary sends it; POST with a Parameters body as FHIR allows.
  app.route<{ Params: { id: string }; Querystring: QueryParams }>({
    method: ['GET', 'POST'],
    url: '/Patient/:id/$summary',
    handler: async (request, reply) => {
      const summaryRequest = parseSummaryRequest(request.query, request.body);
      const bundle = await patientSummary(
        db,
        getContext(request),
        fhirBase,
        request.params.id,
        summaryRequest,
      );
      return reply.type(FHIR_JSON).send(bundle);
    },
  });

  app.get<{ Querystring: QueryParams }>('/ValueSet/$expand', async (request, reply) =>
    reply.type(FHIR_JSON).send(await expandValueSetOperation(db, getContext(request), request.query)),
  );

  // GET, and POST as MedplumClient.requestProfileSchema sends it (an empty body, ignored: the
  // profile is named by ?url in both).
  app.route<{ Querystring: QueryParams }>({
    method: ['GET', 'POST'],
    url: '/StructureDefinition/$expand-profile',
    handler: async (request, reply) =>
      reply.type(FHIR_JSON).send(await expandProfile(db, getContext(request), fhirBase, request.query)),
  });

  // Scheduling as Medplum's server does it: GET with the query, or POST with a Parameters body.
  app.route<{ Params: { id: string }; Querystring: QueryParams }>({
    method: ['GET', 'POST'],
    url: '/Schedule/:id/$find',
    handler: async (request, reply) =>
      reply
        .type(FHIR_JSON)
        .send(
          await findScheduleSlots(db, getContext(request), request.params.id, request.query, request.body),
        ),
  });

  app.route<{ Querystring: QueryParams }>({
    method: ['GET', 'POST'],
    url: '/Appointment/$find',
    handler: async (request, reply) =>
      reply
        .type(FHIR_JSON)
        .send(await findAppointments(db, getContext(request), request.query, request.body)),
  });

  app.post('/Appointment/$hold', async (request, reply) =>
    reply
      .code(201)
      .type(FHIR_JSON)
      .send(await holdOperation(db, getContext(request), request.body)),
  );

  app.post('/Appointment/$book', async (request, reply) =>
    reply
      .code(201)
      .type(FHIR_JSON)
      .send(await bookOperation(db, getContext(request), request.body)),
  );

  // GET with ?subject=, or POST with a Parameters body (as MedplumClient.post sends it).
  app.route<{ Params: { id: string }; Querystring: QueryParams }>({
    method: ['GET', 'POST'],
    url: '/PlanDefinition/:id/$apply',
    handler: async (request, reply) =>
      reply
        .type(FHIR_JSON)
        .send(
          await planDefinitionApplyOperation(
            db,
            getContext(request),
            request.params.id,
            request.query,
            request.body,
          ),
        ),
  });
};
