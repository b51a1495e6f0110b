// POST and GET {base}/$graphql (SPEC §7) and GET {type}/{id}/$graph?graph={name}, as one Fastify
// plugin under /fhir/R4. Each request gets its own context: the caller's Repository (so searches and
// writes are access-controlled like REST) and a fresh reference loader (batched reads).
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { BinaryUrlSigner } from '../binary/attachment-urls';
import type { Database } from '../db';
import { checkUrlResourceType } from '../fhir/interactions';
import { FHIR_JSON } from '../media-types';
import { currentRequestWait } from '../request-wait';
import { Repository } from '../repo';
import type { RepositoryContext, RepositorySettings } from '../repo';
import type { GraphQLContext } from './context';
import { executeGraphQL } from './execute';
import type { GraphQLOptions, GraphQLRequestInput } from './execute';
import { findGraphDefinition, runGraph } from './graph-operation';
import { createReferenceLoader } from './reference-loader';
import { getGraphQLSchema, getGraphQLSchemaInSlices } from './schema';
import { limitConcurrency } from './search-limiter';
import { guardPlatformType } from '../auth/platform-guard';

export interface GraphQLRoutesOptions extends GraphQLOptions {
  db: Database;
  getContext: (request: FastifyRequest) => RepositoryContext;
  /** Signs attachment URLs of Binaries in answers. */
  binaryUrls?: BinaryUrlSigner;
  /** Given to every Repository a request builds (e.g. how mutations store this server's Binary URLs). */
  repositorySettings?: RepositorySettings;
  /** Build the schema in the background once the server listens, so no request waits for it. */
  buildSchemaAtStart?: boolean;
  /** Searches one document (or $graph) runs at once; the default is DEFAULT_MAX_CONCURRENT_SEARCHES. */
  maxConcurrentSearches?: number;
}

/** Searches one document runs at once when the caller does not say (GRAPHQL_MAX_CONCURRENT_SEARCHES). */
export const DEFAULT_MAX_CONCURRENT_SEARCHES = 4;

export function createGraphQLContext(
  db: Database,
  context: RepositoryContext,
  binaryUrls?: BinaryUrlSigner,
  repositorySettings?: RepositorySettings,
  maxConcurrentSearches = DEFAULT_MAX_CONCURRENT_SEARCHES,
): GraphQLContext {
  // Mutations write with the same settings as REST writes.
  const repo = new Repository(db, context, undefined, repositorySettings);
  return {
    repo,
    // Every GraphQL search (TypeList, TypeConnection, reverse lists, ResourceSearch) refuses a type
    // REST refuses the caller, with its 403 reason, instead of answering an empty list; the
    // document's searches share a few slots (search-limiter.ts).
    search: limitConcurrency((request) => {
      guardPlatformType(request.resourceType, context.access);
      return repo.search(request);
    }, maxConcurrentSearches),
    loader: createReferenceLoader(db, context),
    binaryUrls,
  };
}

export const graphqlRoutes: FastifyPluginAsync<GraphQLRoutesOptions> = async (
  app: FastifyInstance,
  options,
) => {
  const { db, getContext, binaryUrls, repositorySettings } = options;
  const limits: GraphQLOptions = { introspection: options.introspection, maxCost: options.maxCost };

  let buildLogged = false;

  if (options.buildSchemaAtStart) {
    // The build yields every 20 ms, but assembling the finished schema is one synchronous step:
    // done at start-up it delays nobody's GraphQL request. Closing the server stops it.
    const stop = new AbortController();
    app.addHook('onListen', async () => {
      getGraphQLSchemaInSlices(stop.signal).then(
        ({ buildMs }) => {
          buildLogged = true;
          app.log.info(`GraphQL schema built in the background in ${buildMs.toFixed(0)} ms`);
        },
        (err: unknown) => {
          if (!stop.signal.aborted) app.log.error({ err }, 'GraphQL schema build failed');
        },
      );
    });
    app.addHook('onClose', async () => stop.abort());
  }

  async function handle(request: FastifyRequest, input: GraphQLRequestInput, method: 'GET' | 'POST') {
    const context = createGraphQLContext(
      db,
      getContext(request),
      binaryUrls,
      repositorySettings,
      options.maxConcurrentSearches,
    );
    const result = await executeGraphQL(input, method, context, limits, (err) =>
      request.log.error({ err }, 'GraphQL resolver failed'),
    );
    // A resolver refused for a busy database (request-wait.ts): the whole answer is the 503, as
    // over REST; a refused request has written nothing.
    const refusal = currentRequestWait()?.refusal;
    if (refusal) throw refusal;
    if (!buildLogged) {
      buildLogged = true;
      request.log.info(
        `GraphQL schema built in ${getGraphQLSchema().buildMs.toFixed(0)} ms (once per process)`,
      );
    }
    return result;
  }

  app.post('/$graphql', async (request, reply) => {
    if (request.body === undefined || request.body === null) {
      throw new OperationOutcomeError(
        badRequest('Send {query, operationName, variables} as application/json'),
      );
    }
    const result = await handle(request, request.body as GraphQLRequestInput, 'POST');
    return reply.status(200).type('application/json').send(result);
  });

  app.get<{ Querystring: Record<string, unknown> }>('/$graphql', async (request, reply) => {
    const result = await handle(request, request.query, 'GET');
    return reply.status(200).type('application/json').send(result);
  });

  app.get<{ Params: { resourceType: string; id: string }; Querystring: { graph?: unknown } }>(
    '/:resourceType/:id/$graph',
    async (request, reply) => {
      const { resourceType, id } = request.params;
      checkUrlResourceType(resourceType);
      const name = request.query.graph;
      if (typeof name !== 'string' || name === '') {
        throw new OperationOutcomeError(
          badRequest('Missing graph: the name of a stored GraphDefinition', 'graph'),
        );
      }
      const context = createGraphQLContext(
        db,
        getContext(request),
        undefined,
        undefined,
        options.maxConcurrentSearches,
      );
      const start = await context.repo.readResource(resourceType, id);
      const graph = await findGraphDefinition(context, name);
      const bundle = await runGraph(context, graph, start);
      return reply.status(200).type(FHIR_JSON).send(bundle);
    },
  );
};
