// Repeating elements (SPEC: FHIR GraphQL "list" arguments, as Medplum offers them): `_count` and
// `_offset` on every list, and on lists of structures a `fhirpath` filter plus one argument per
// text-like property ('name(use: "official")').
import type { Resource } from '@medplum/fhirtypes';
import fhirpath from 'fhirpath';
import r4Model from 'fhirpath/fhir-context/r4';
import { GraphQLInt, GraphQLString } from 'graphql';
import type { GraphQLFieldConfigArgumentMap, GraphQLFieldResolver } from 'graphql';
import { badRequest, getTypeSchema, OperationOutcomeError } from '../../fhir';
import type { GraphQLContext } from './context';

const TEXT_TYPES = new Set(['canonical', 'code', 'id', 'oid', 'string', 'uri', 'url', 'uuid']);

const argsCache = new Map<string, GraphQLFieldConfigArgumentMap>();

/** The arguments of a list of `typeCode` (one shared map per element type). */
export function listArgs(typeCode: string, isStructure: boolean): GraphQLFieldConfigArgumentMap {
  const cacheKey = isStructure ? typeCode : '';
  let args = argsCache.get(cacheKey);
  if (!args) {
    args = { _count: { type: GraphQLInt }, _offset: { type: GraphQLInt } };
    if (isStructure) {
      args.fhirpath = { type: GraphQLString };
      for (const [name, property] of getTypeSchema(typeCode)?.properties ?? []) {
        if (TEXT_TYPES.has(property.type.code) && !property.element.isChoice) {
          args[name] = { type: GraphQLString };
        }
      }
    }
    argsCache.set(cacheKey, args);
  }
  return args;
}

export function clearListArgsCache(): void {
  argsCache.clear();
}

type Compiled = (item: unknown) => unknown[];
const compiledCache = new Map<string, Compiled>();
const MAX_COMPILED = 500;

function compileFhirPath(expression: string): Compiled {
  let compiled = compiledCache.get(expression);
  if (!compiled) {
    try {
      const fn = fhirpath.compile(expression, r4Model);
      compiled = (item) => fn(item as Resource) as unknown[];
    } catch (err) {
      throw new OperationOutcomeError(
        badRequest(`Invalid fhirpath '${expression}': ${(err as Error).message}`, 'fhirpath'),
      );
    }
    if (compiledCache.size >= MAX_COMPILED) {
      compiledCache.clear();
    }
    compiledCache.set(expression, compiled);
  }
  return compiled;
}

/** FHIRPath truth of a result: a single boolean is itself; otherwise any value counts as true. */
function isTrue(result: unknown[]): boolean {
  return result.length === 1 && typeof result[0] === 'boolean' ? result[0] : result.length > 0;
}

/** Filters and pages a repeating element by its arguments; without arguments the list is returned as is. */
export const resolveListField: GraphQLFieldResolver<Record<string, unknown>, GraphQLContext> = (
  source,
  args: Record<string, unknown>,
  _context,
  info,
) => {
  const value = source[info.fieldName];
  if (!Array.isArray(value)) {
    return value;
  }
  let items: unknown[] = value;
  const { _count, _offset, fhirpath: expression, ...properties } = args;
  for (const [name, wanted] of Object.entries(properties)) {
    if (wanted !== undefined && wanted !== null) {
      items = items.filter((item) => (item as Record<string, unknown> | null)?.[name] === wanted);
    }
  }
  if (typeof expression === 'string') {
    const compiled = compileFhirPath(expression);
    items = items.filter((item) => isTrue(compiled(item)));
  }
  const offset = typeof _offset === 'number' ? Math.max(0, _offset) : 0;
  const end = typeof _count === 'number' ? offset + Math.max(0, _count) : undefined;
  return offset > 0 || end !== undefined ? items.slice(offset, end) : items;
};
