// FHIR operations of issue #5 as their own plugin under /fhir/R4 (next to src/server/fhir, whose
// generic /:resourceType/:id routes these static paths take precedence over): Patient $everything,
// ValueSet $expand and StructureDefinition $expand-profile. Authentication is the app's FHIR hook.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Database } from '../db';
import { FHIR_JSON } from '../fhir/media-types';
import type { QueryParams } from '../fhir/paging';
import type { RepositoryContext } from '../repo';
import { patientEverything } from './everything';
import { expandProfile } from './expand-profile';
import { expandValueSetOperation } from './value-set-expand';

export interface FhirOperationRoutesOptions {
  db: Database;
  /** Absolute URL of the FHIR base, ending in '/'. */
  fhirBase: string;
  /** Who the request acts as (the same function the REST routes use). */
  getContext: (request: FastifyRequest) => RepositoryContext;
}

export const fhirOperationRoutes: FastifyPluginAsync<FhirOperationRoutesOptions> = async (app, options) => {
  const { db, fhirBase, getContext } = options;

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

  app.get<{ Querystring: QueryParams }>('/ValueSet/$expand', async (request, reply) =>
    reply.type(FHIR_JSON).send(await expandValueSetOperation(db, getContext(request), request.query)),
  );

  app.get<{ Querystring: QueryParams }>('/StructureDefinition/$expand-profile', async (request, reply) =>
    reply.type(FHIR_JSON).send(await expandProfile(db, getContext(request), fhirBase, request.query)),
  );
};
