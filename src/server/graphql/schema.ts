// The FHIR GraphQL schema, Medplum's conventions: QueryType with `Type(id)`, `TypeList`
// and `TypeConnection` for every resource type, reverse lookups `OtherTypeList(_reference: …)` on
// every resource type, and MutationType with TypeCreate / TypeUpdate / TypeDelete; beside them
// Bloom's one generic field, `ResourceSearch(resourceType, search)` (resource-search.ts). Built from the
// definitions once per process (a few seconds: see bench and `npm run schema`), in slices that yield:
// in the background once the server listens (routes.ts), else on first use.
import {
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
} from 'graphql';
import type {
  GraphQLEnumValueConfigMap,
  GraphQLFieldConfigArgumentMap,
  GraphQLType,
  GraphQLNamedType,
} from 'graphql';
import { getResourceTypes, getSearchParameters } from '../../fhir';
import type { BloomFieldExtensions } from './context';
import { InputTypes } from './input-types';
import { clearListArgsCache } from './list-fields';
import { searchParamToArgName } from './naming';
import { OutputTypes } from './output-types';
import type { FieldMap } from './output-types';
import {
  resolveById,
  resolveConnection,
  resolveCreate,
  resolveDelete,
  resolveList,
  resolveUpdate,
} from './resolvers';
import { resourceSearchField } from './resource-search';
import { clearSearchArgsCache, searchArgs } from './search-args';

/** Longest stretch of the sliced build between two turns of the event loop. */
const SLICE_MS = 20;

const SEARCH: BloomFieldExtensions = { bloomCost: 'search' };
const READ: BloomFieldExtensions = { bloomCost: 'read' };

/** For each resource type, the reference search parameters of each other type that can point at it. */
function reverseReferenceParams(): Map<string, Map<string, string[]>> {
  const byTarget = new Map<string, Map<string, string[]>>();
  for (const childType of getResourceTypes()) {
    for (const param of getSearchParameters(childType)) {
      if (param.type !== 'reference') {
        continue;
      }
      for (const target of param.target ?? []) {
        let children = byTarget.get(target);
        if (!children) {
          children = new Map();
          byTarget.set(target, children);
        }
        const codes = children.get(childType) ?? [];
        if (!codes.includes(param.code)) {
          codes.push(param.code);
        }
        children.set(childType, codes);
      }
    }
  }
  return byTarget;
}

class SchemaBuilder {
  private readonly reverse = reverseReferenceParams();
  private readonly outputs = new OutputTypes((type, fields) => this.addReverseLookups(type, fields));
  private readonly inputs = new InputTypes();

  /** `ObservationList(_reference: subject, …)` on Patient: Observations whose `subject` is this Patient. */
  private addReverseLookups(resourceType: string, fields: FieldMap): void {
    const children = this.reverse.get(resourceType);
    if (!children) {
      return;
    }
    for (const childType of getResourceTypes()) {
      const codes = children.get(childType);
      const fieldName = `${childType}List`;
      if (!codes || fieldName in fields) {
        continue;
      }
      const values: GraphQLEnumValueConfigMap = {};
      for (const code of codes) {
        const name = searchParamToArgName(code);
        if (name) {
          values[name] = { value: code };
        }
      }
      const args: GraphQLFieldConfigArgumentMap = {
        ...searchArgs(childType),
        _reference: {
          type: new GraphQLNonNull(
            new GraphQLEnumType({ name: `${resourceType}_${childType}_reference`, values }),
          ),
        },
      };
      fields[fieldName] = {
        type: new GraphQLList(this.outputs.objectType(childType)),
        args,
        resolve: resolveList(childType),
        extensions: SEARCH,
      };
    }
  }

  private connectionType(resourceType: string): GraphQLObjectType {
    const edge = new GraphQLObjectType({
      name: `${resourceType}ConnectionEdge`,
      fields: {
        mode: { type: GraphQLString },
        score: { type: GraphQLFloat },
        resource: { type: this.outputs.objectType(resourceType) },
      },
    });
    return new GraphQLObjectType({
      name: `${resourceType}Connection`,
      fields: {
        count: { type: GraphQLInt },
        offset: { type: GraphQLInt },
        pageSize: { type: GraphQLInt },
        first: { type: GraphQLString },
        previous: { type: GraphQLString },
        next: { type: GraphQLString },
        last: { type: GraphQLString },
        edges: { type: new GraphQLList(edge) },
      },
    });
  }

  build(): GraphQLSchema {
    return this.schema(this.roots(), false);
  }

  /**
   * The same schema, built with turns of the event loop in between: every type's fields are
   * resolved in slices of about SLICE_MS before GraphQLSchema collects them (which then finds them
   * done), so the first GraphQL request does not hold every other request for the whole build.
   * The schema is not validated here: graphql-js's validateSchema walks all ~180,000 arguments in
   * one go (measured 110-180 ms under tsx, 630-750 ms under jest), and this schema is the same one
   * buildGraphQLSchema() makes, whose validation a test asserts. `signal` stops a build whose
   * server closed.
   */
  async buildInSlices(signal?: AbortSignal): Promise<GraphQLSchema> {
    const roots = this.roots();
    const pending: GraphQLNamedType[] = [];
    for (const fields of [roots.query, roots.mutation]) {
      for (const field of Object.values(fields)) {
        pending.push(getNamedType(field.type));
        for (const arg of Object.values(field.args ?? {})) pending.push(getNamedType(arg.type));
      }
    }
    const seen = new Set<GraphQLNamedType>();
    let sliceStart = performance.now();
    for (let type = pending.pop(); type; type = pending.pop()) {
      if (seen.has(type)) continue;
      seen.add(type);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          pending.push(getNamedType(field.type as GraphQLType));
          const args: readonly { type: GraphQLType }[] = 'args' in field ? field.args : [];
          for (const arg of args) pending.push(getNamedType(arg.type));
        }
      } else if (isUnionType(type)) {
        pending.push(...type.getTypes());
      }
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        signal?.throwIfAborted();
        sliceStart = performance.now();
      }
    }
    return this.schema(roots, true);
  }

  private schema(
    { query, mutation }: { query: FieldMap; mutation: FieldMap },
    assumeValid: boolean,
  ): GraphQLSchema {
    return new GraphQLSchema({
      assumeValid,
      query: new GraphQLObjectType({ name: 'QueryType', fields: query }),
      mutation: new GraphQLObjectType({ name: 'MutationType', fields: mutation }),
      // Union members and nested structures are reachable from the roots; listing the union keeps
      // every resource type in the schema even if no field returned it directly.
      types: [this.outputs.resourceUnion],
    });
  }

  private roots(): { query: FieldMap; mutation: FieldMap } {
    const query: FieldMap = {};
    const mutation: FieldMap = {};
    const idArg = { id: { type: new GraphQLNonNull(GraphQLID) } };
    for (const resourceType of getResourceTypes()) {
      const type = this.outputs.objectType(resourceType);
      query[resourceType] = { type, args: idArg, resolve: resolveById(resourceType), extensions: READ };
      query[`${resourceType}List`] = {
        type: new GraphQLList(type),
        args: searchArgs(resourceType),
        resolve: resolveList(resourceType),
        extensions: SEARCH,
      };
      query[`${resourceType}Connection`] = {
        type: this.connectionType(resourceType),
        args: searchArgs(resourceType),
        resolve: resolveConnection(resourceType),
        extensions: SEARCH,
      };
      mutation[`${resourceType}Create`] = {
        type,
        args: { res: { type: new GraphQLNonNull(this.inputs.inputType(resourceType, 'Create')) } },
        resolve: resolveCreate(resourceType),
      };
      mutation[`${resourceType}Update`] = {
        type,
        args: { ...idArg, res: { type: new GraphQLNonNull(this.inputs.inputType(resourceType, 'Update')) } },
        resolve: resolveUpdate(resourceType),
      };
      mutation[`${resourceType}Delete`] = { type, args: idArg, resolve: resolveDelete(resourceType) };
    }
    query.ResourceSearch = resourceSearchField();
    return { query, mutation };
  }
}

/** Builds a new schema from the definitions (tests and `npm run schema`; the server uses getGraphQLSchema). */
export function buildGraphQLSchema(): GraphQLSchema {
  clearSearchArgsCache();
  clearListArgsCache();
  return new SchemaBuilder().build();
}

let cached: { schema: GraphQLSchema; buildMs: number } | undefined;
let building: Promise<{ schema: GraphQLSchema; buildMs: number }> | undefined;

/**
 * The process's schema as getGraphQLSchema, built in slices that let other requests run. A build
 * stopped by `signal` rejects its waiters and leaves the next call to start a new one.
 */
export function getGraphQLSchemaInSlices(
  signal?: AbortSignal,
): Promise<{ schema: GraphQLSchema; buildMs: number }> {
  if (cached) return Promise.resolve(cached);
  building ??= (async () => {
    const start = performance.now();
    clearSearchArgsCache();
    clearListArgsCache();
    try {
      const schema = await new SchemaBuilder().buildInSlices(signal);
      // A synchronous build may have finished meanwhile: keep that one.
      cached ??= { schema, buildMs: performance.now() - start };
      return cached;
    } finally {
      building = undefined;
    }
  })();
  return building;
}

/** Whether the schema is built (a request would not wait for it). */
export function isGraphQLSchemaReady(): boolean {
  return cached !== undefined;
}

/** The process's schema, built on first use and kept; `buildMs` says what the first build cost. */
export function getGraphQLSchema(): { schema: GraphQLSchema; buildMs: number } {
  if (!cached) {
    const start = performance.now();
    const schema = buildGraphQLSchema();
    cached = { schema, buildMs: performance.now() - start };
  }
  return cached;
}
