// The root subscription type of /ws/graphql: one `<Type>Changed(<search args>)` field per resource
// type on top of the $graphql schema. Part of the schema, so it lives in graphql/ (live/'s graphql-ws
// server imports it, never the other way round) and the schema snapshot (`npm run schema`) prints it
// too, and operations can declare a codegen-typed `subscription`. The root is named SubscriptionType
// (as the others are QueryType and MutationType), which keeps it clear of the FHIR `Subscription`
// resource type.
import { GraphQLObjectType, GraphQLSchema } from 'graphql';
import type { GraphQLFieldConfigMap, GraphQLFieldConfigArgumentMap, GraphQLOutputType } from 'graphql';
import { getResourceTypes } from '../../fhir';
import { searchArgs } from './search-args';

export const SUBSCRIPTION_ROOT_NAME = 'SubscriptionType';

/** What a `<Type>Changed` field needs to start its event stream. */
export type ChangedSubscriber<TContext> = (
  resourceType: string,
  field: string,
  args: Record<string, unknown>,
  context: TContext,
) => AsyncIterable<unknown>;

/**
 * The search arguments a change can be filtered by: paging and sorting mean nothing for a stream,
 * and `_filter` is decided in SQL only (criteria.ts refuses it).
 */
function changedArgs(resourceType: string): GraphQLFieldConfigArgumentMap {
  const { _count: _c, _offset: _o, _sort: _s, _filter: _f, ...args } = searchArgs(resourceType);
  return args;
}

/**
 * `base` with the SubscriptionType root added. Without `subscribe` the fields have no resolver:
 * that schema is for printing (the snapshot) and validation, not for serving.
 */
export function withSubscriptionRoot<TContext>(
  base: GraphQLSchema,
  subscribe?: ChangedSubscriber<TContext>,
): GraphQLSchema {
  const fields: GraphQLFieldConfigMap<unknown, TContext> = {};
  for (const resourceType of getResourceTypes()) {
    const type = base.getType(resourceType);
    if (!type) continue;
    const field = `${resourceType}Changed`;
    fields[field] = {
      type: type as GraphQLOutputType,
      args: changedArgs(resourceType),
      ...(subscribe && {
        subscribe: (_root: unknown, values: Record<string, unknown>, context: TContext) =>
          subscribe(resourceType, field, values, context),
      }),
    };
  }
  return new GraphQLSchema({
    ...base.toConfig(),
    subscription: new GraphQLObjectType({ name: SUBSCRIPTION_ROOT_NAME, fields }),
  });
}
