// ClientApplication/{id}/$rotate-secret (Medplum's operation, SPEC §6): with `secret` (the current
// one) a new secret is made and the old one kept as retiringSecret until it is retired with
// `retiringSecret`. Creating a secret is a credential change: the caller is the client's project
// admin and gives the current `password` or has signed in within minutes (auth/recent-auth.ts).
import type { ClientApplication, Parameters } from '@medplum/fhirtypes';
import type { FastifyPluginAsync } from 'fastify';
import { badRequest, forbidden, OperationOutcomeError } from '../../fhir';
import { requireAuth } from '../auth/authenticate';
import { randomSecret } from '../auth/logins';
import { requireRecentAuth } from '../auth/recent-auth';
import { FHIR_JSON } from '../media-types';
import type { QueryParams } from '../fhir/paging';
import { Repository } from '../repo';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import { readOperationInput, stringInput } from './operation-input';
import type { InputParameter } from './operation-input';

const PARAMETERS: readonly InputParameter[] = [
  { name: 'secret', kind: 'value', max: 1 },
  { name: 'retiringSecret', kind: 'value', max: 1 },
  { name: 'password', kind: 'value', max: 1 },
];

export interface RotateSecretRoutesOptions {
  deps: ServerServices;
}

export const rotateSecretRoutes: FastifyPluginAsync<RotateSecretRoutesOptions> = async (app, { deps }) => {
  app.post<{ Params: { id: string }; Querystring: QueryParams }>(
    '/ClientApplication/:id/$rotate-secret',
    async (request, reply) => {
      const auth = await requireAuth(deps, request);
      const access = auth.context.access;
      if (!access?.superAdmin && !access?.projectAdmin) {
        throw new OperationOutcomeError(forbidden);
      }
      const input = readOperationInput('$rotate-secret', PARAMETERS, request.query, request.body);
      const secret = stringInput(input, 'secret');
      const retiring = stringInput(input, 'retiringSecret');
      if (!secret === !retiring) {
        throw new OperationOutcomeError(
          badRequest('Give either secret or retiringSecret, not both', 'secret'),
        );
      }
      // The caller's own read: a client of another project is not found.
      const client = await new Repository(deps.db, auth.context).readResource<ClientApplication>(
        'ClientApplication',
        request.params.id,
      );
      let next: ClientApplication;
      if (secret !== undefined && secret === client.secret) {
        await requireRecentAuth(deps, auth, { password: stringInput(input, 'password') }, request.ip);
        next = { ...client, secret: randomSecret(), retiringSecret: client.secret };
      } else if (retiring !== undefined && retiring === client.retiringSecret) {
        const { retiringSecret: _retired, ...kept } = client;
        next = kept;
      } else {
        throw new OperationOutcomeError(badRequest('Provided secret does not match client', 'secret'));
      }
      const { resource } = await systemRepo(deps.db).updateResource(next, {
        ifMatch: client.meta?.versionId,
      });
      const output: Parameters = {
        resourceType: 'Parameters',
        parameter: [{ name: 'return', resource }],
      };
      return reply.type(FHIR_JSON).send(output);
    },
  );
};
