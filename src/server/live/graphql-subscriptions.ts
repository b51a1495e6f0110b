// GraphQL subscriptions over graphql-ws at /ws/graphql, on the same engine as the FHIR
// Subscriptions: `subscription { CommunicationChanged(subject: "Patient/1") { id payload { contentString } } }`
// emits each matching created or updated resource the caller may see. The schema is the $graphql
// schema of src/server/graphql (its types, resolvers and search arguments, unchanged) plus a
// SubscriptionType with one `<Type>Changed(<search args>)` field per resource type, added here so
// the GraphQL module stays as it is. The caller is the access token in the connection parameters
// ({"token": "…"} or {"authorization": "Bearer …"}).
import type { ProjectMembership, Resource } from '@medplum/fhirtypes';
import { getOperationAST, GraphQLError } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { WebSocketServer } from 'ws';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { ServerConfig } from '../config';
import type { ServerServices } from '../services';
import type { BinaryUrlSigner } from '../binary/attachment-urls';
import { systemRepo } from '../services';
import { buildAuthState, verifyAccessToken } from '../auth/authenticate';
import type { GraphQLContext } from '../graphql/context';
import { parseBounded } from '../graphql/document-bounds';
import { checkIntrospectionAllowed, checkOperationLimits } from '../graphql/execute';
import { countSchemaTypesFields } from '../graphql/introspection';
import { parseAndValidate } from '../graphql/validation';
import { createGraphQLContext } from '../graphql/routes';
import { getGraphQLSchemaInSlices } from '../graphql/schema';
import type { RepositoryContext, RepositorySettings } from '../repo';
import { deliverableTo } from './audience';
import type { LiveAudience } from './audience';
import { criteriaFromArgs } from './criteria';
import { withSubscriptionRoot } from '../graphql/subscription-type';
import type { LiveEngine } from './live-engine';
import { routingKey } from './routing-keys';

/** Events waiting for a slow subscriber beyond this end its subscription with an error. */
const MAX_QUEUED_EVENTS = 1000;

interface LiveGraphQLContext extends GraphQLContext {
  live: { engine: LiveEngine; caller: RepositoryContext };
}

type Payload = Record<string, Resource>;

/** A push queue as the AsyncIterator graphql-js subscribe expects; return() unsubscribes. */
function changes(engine: LiveEngine, audience: LiveAudience, field: string): AsyncIterableIterator<Payload> {
  const queue: Payload[] = [];
  const waiting: ((result: IteratorResult<Payload>) => void)[] = [];
  let failure: Error | undefined;
  let done = false;
  const unsubscribe = engine.subscribe(
    audience.criteria.resourceType,
    (event, target) => {
      // A deleted resource has no fields to select: TypeChanged streams creates and updates.
      if (event.deleted) return;
      const resource = deliverableTo(audience, target);
      if (!resource || done) return;
      const payload = { [field]: resource };
      const next = waiting.shift();
      if (next) next({ value: payload, done: false });
      else if (queue.length < MAX_QUEUED_EVENTS) queue.push(payload);
      else failure = new Error('Too many undelivered events: subscribe again and refetch');
    },
    routingKey(audience.criteria),
  );
  const finish = (): Promise<IteratorResult<Payload>> => {
    done = true;
    unsubscribe();
    for (const wake of waiting.splice(0)) wake({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  };
  return {
    next() {
      if (failure) {
        const err = failure;
        void finish();
        return Promise.reject(err);
      }
      const queued = queue.shift();
      if (queued) return Promise.resolve({ value: queued, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => waiting.push(resolve));
    },
    return: finish,
    throw(err?: unknown) {
      void finish();
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

let cached: GraphQLSchema | undefined;

/** The $graphql schema with the SubscriptionType added (built once per process, on first use). */
export async function getLiveGraphQLSchema(): Promise<GraphQLSchema> {
  const { schema } = await getGraphQLSchemaInSlices();
  cached ??= withSubscriptionRoot<LiveGraphQLContext>(schema, (resourceType, field, values, context) =>
    changes(
      context.live.engine,
      { context: context.live.caller, criteria: criteriaFromArgs(resourceType, values) },
      field,
    ),
  );
  return cached;
}

/**
 * What $graphql checks before running a document, for one sent over the socket: its size bounds
 * always; for a query or mutation also the introspection switch, depth and cost. Whole-schema
 * introspection, which $graphql answers a slice at a time, is refused here: answered in one go it
 * would hold the event loop for seconds.
 */
async function checkSocketOperation(
  payload: SubscribePayload,
  config: Pick<ServerConfig, 'graphqlIntrospection' | 'graphqlMaxCost'>,
): Promise<void> {
  const bounded = parseBounded(payload.query);
  const operation = getOperationAST(bounded, payload.operationName ?? undefined);
  // A subscription is validated by graphql-ws against the live schema, which has its root.
  if (!operation || operation.operation === 'subscription') return;
  const { schema } = await getGraphQLSchemaInSlices();
  const document = parseAndValidate(schema, payload.query);
  checkIntrospectionAllowed(schema, document, config.graphqlIntrospection);
  if (countSchemaTypesFields(schema, document) > 0) {
    throw new OperationOutcomeError(
      badRequest(
        'Whole-schema introspection (__schema { types }) is answered by POST $graphql, not over the socket',
      ),
    );
  }
  checkOperationLimits(schema, document, operation, payload.variables ?? {}, config.graphqlMaxCost);
}

/** The first issue's text of a refusal. */
function outcomeText(err: unknown): string {
  return err instanceof OperationOutcomeError
    ? (err.outcome.issue?.[0]?.details?.text ?? 'Invalid query')
    : 'Invalid query';
}

/** The caller of an access token (as the REST API's Bearer authentication), or a thrown 401. */
async function callerOf(deps: ServerServices, token: string): Promise<RepositoryContext> {
  const login = await verifyAccessToken(deps, token);
  const membershipId = login.membership?.reference?.split('/')[1] ?? '';
  const membership = await systemRepo(deps.db).readResource<ProjectMembership>(
    'ProjectMembership',
    membershipId,
  );
  return (await buildAuthState(deps.db, membership, { login })).context;
}

function tokenOf(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const token = params?.token ?? params?.accessToken;
  if (typeof token === 'string' && token) return token;
  const header = params?.authorization ?? params?.Authorization;
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

/** Serves graphql-ws (protocol graphql-transport-ws) on `wss`; returns the function that stops it. */
export function serveGraphQLSubscriptions(
  wss: WebSocketServer,
  deps: ServerServices,
  engine: LiveEngine,
  /** Signs attachment URLs of Binaries in the events, as $graphql does. */
  binaryUrls?: BinaryUrlSigner,
  /** As $graphql's Repository settings. */
  repositorySettings?: RepositorySettings,
): () => Promise<void> {
  const callers = new WeakMap<object, RepositoryContext>();
  const server = useServer<Record<string, unknown>>(
    {
      schema: getLiveGraphQLSchema,
      // false closes the socket with 4403 Forbidden, as graphql-ws specifies for a refused init.
      onConnect: async (ctx) => {
        const token = tokenOf(ctx.connectionParams);
        if (!token) return false;
        try {
          callers.set(ctx.extra.socket, await callerOf(deps, token));
          return true;
        } catch {
          return false;
        }
      },
      // The same bounds as POST $graphql before graphql-ws parses and validates the document:
      // a refused one is an error message for its subscription id; the socket stays open.
      onSubscribe: async (_ctx, _id, payload) => {
        try {
          await checkSocketOperation(payload, deps.config);
          return undefined;
        } catch (err) {
          return [err instanceof GraphQLError ? err : new GraphQLError(outcomeText(err))];
        }
      },
      context: (ctx): LiveGraphQLContext => {
        const caller = callers.get(ctx.extra.socket) as RepositoryContext;
        return {
          ...createGraphQLContext(deps.db, caller, binaryUrls, repositorySettings),
          live: { engine, caller },
        };
      },
    },
    wss,
    // No keep-alive of its own: WebSocketPaths pings every socket of every path.
    0,
  );
  return async () => {
    await server.dispose();
  };
}
