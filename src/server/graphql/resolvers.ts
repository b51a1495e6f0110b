// Resolvers of the root fields and reverse lookups: reads through the request's loader, searches
// through the search engine (access-controlled like REST: counts included), writes through the
// Repository (so mutations pass the same validation and access control as REST writes).
import type { Resource } from '@medplum/fhirtypes';
import type { GraphQLFieldResolver, GraphQLResolveInfo } from 'graphql';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { GraphQLContext } from './context';
import { toSearchRequest } from './search-args';
import type { SearchArgValues } from './search-args';

type Source = Record<string, unknown> | null | undefined;
type Resolver<T> = GraphQLFieldResolver<Source, GraphQLContext, Record<string, unknown>, Promise<T>>;

export interface ConnectionValue {
  count?: number;
  offset: number;
  pageSize: number;
  edges: { mode: string; resource: Resource }[];
  /** The _offset of the next page, when there is one. */
  next?: string;
}

export function resolveById(resourceType: string): Resolver<Resource> {
  return (_source, args, context) => context.loader.load(`${resourceType}/${String(args.id)}`);
}

/** Reverse lookups search for what points at the resource being resolved (`source`). */
function reverseTarget(source: Source): string | undefined {
  const type = source?.resourceType;
  const id = source?.id;
  return typeof type === 'string' && typeof id === 'string' ? `${type}/${id}` : undefined;
}

export function resolveList(resourceType: string): Resolver<Resource[]> {
  return async (source, args, context) => {
    const result = await context.search(toSearchRequest(resourceType, args, reverseTarget(source)));
    return result.resources;
  };
}

/** Whether the selection under this field asks for `name` (the count costs a COUNT query). */
function selects(info: GraphQLResolveInfo, name: string): boolean {
  return info.fieldNodes.some((node) =>
    node.selectionSet?.selections.some(
      (selection) =>
        (selection.kind === 'Field' && selection.name.value === name) || selection.kind !== 'Field',
    ),
  );
}

export function resolveConnection(resourceType: string): Resolver<ConnectionValue> {
  return async (source, args: SearchArgValues, context, info) => {
    const request = toSearchRequest(resourceType, args, reverseTarget(source));
    if (selects(info, 'count')) {
      request.total = 'accurate';
    }
    const result = await context.search(request);
    const offset = request.offset ?? 0;
    const pageSize = request.count ?? 0;
    const value: ConnectionValue = {
      count: result.total,
      offset,
      pageSize,
      edges: result.resources.map((resource) => ({ mode: 'match', resource })),
    };
    if (result.hasMore) {
      value.next = String(offset + pageSize);
    }
    return value;
  };
}

/** The `res` argument as a resource of the mutation's type (input objects have a null prototype). */
function resourceArg(resourceType: string, args: Record<string, unknown>): Resource {
  const res = JSON.parse(JSON.stringify(args.res ?? null)) as Record<string, unknown> | null;
  if (!res) {
    throw new OperationOutcomeError(badRequest('Missing res', 'res'));
  }
  if (res.resourceType !== undefined && res.resourceType !== resourceType) {
    throw new OperationOutcomeError(
      badRequest(`res.resourceType must be ${resourceType}`, `${resourceType}.resourceType`),
    );
  }
  return { ...res, resourceType } as unknown as Resource;
}

export function resolveCreate(resourceType: string): Resolver<Resource> {
  return (_source, args, context) => context.repo.createResource(resourceArg(resourceType, args));
}

export function resolveUpdate(resourceType: string): Resolver<Resource> {
  return async (_source, args, context) => {
    const resource = resourceArg(resourceType, args);
    const id = String(args.id);
    if (resource.id !== undefined && resource.id !== id) {
      throw new OperationOutcomeError(badRequest('res.id must equal id', `${resourceType}.id`));
    }
    const result = await context.repo.updateResource({ ...resource, id });
    context.loader.clear(`${resourceType}/${id}`);
    return result.resource;
  };
}

/** Answers null: the deleted resource is gone (Medplum's TypeDelete does the same). */
export function resolveDelete(resourceType: string): Resolver<null> {
  return async (_source, args, context) => {
    const id = String(args.id);
    await context.repo.deleteResource(resourceType, id);
    context.loader.clear(`${resourceType}/${id}`);
    return null;
  };
}
