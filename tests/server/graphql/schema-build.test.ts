// The GraphQL schema (SPEC §7) built two ways: synchronously (tests, `npm run schema`) with
// graphql-js's full schema validation, and in slices (the server) without it. The sliced one must
// be the same schema, so the validation of the first stands for the second; a build stopped by its
// signal leaves the next call free to build.
import { isInputObjectType, isObjectType, validateSchema } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import {
  buildGraphQLSchema,
  getGraphQLSchemaInSlices,
  isGraphQLSchemaReady,
} from '../../../src/server/graphql/schema';

/** Every type with its fields and their arguments, as text: equal shapes give equal lists. */
function shape(schema: GraphQLSchema): string[] {
  const lines: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (isObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        lines.push(
          `${type.name}.${field.name}: ${String(field.type)}(${field.args.map((a) => a.name).join()})`,
        );
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields()))
        lines.push(`${type.name}.${field.name}: ${String(field.type)}`);
    } else {
      lines.push(type.name);
    }
  }
  return lines.sort();
}

describe('GraphQL schema build', () => {
  it('a build stopped by its signal rejects, and the next call builds', async () => {
    const stop = new AbortController();
    const stopped = getGraphQLSchemaInSlices(stop.signal);
    stop.abort();
    await expect(stopped).rejects.toThrow();
    expect(isGraphQLSchemaReady()).toBe(false);
    const { schema } = await getGraphQLSchemaInSlices();
    expect(isGraphQLSchemaReady()).toBe(true);
    expect(schema.getQueryType()?.getFields().PatientList).toBeDefined();
  });

  it('the sliced build is the synchronous one, which passes graphql-js validation', async () => {
    const { schema: sliced } = await getGraphQLSchemaInSlices();
    const built = buildGraphQLSchema();
    expect(validateSchema(built)).toEqual([]);
    const slicedShape = shape(sliced);
    expect(slicedShape.length).toBeGreaterThan(30_000);
    expect(slicedShape).toEqual(shape(built));
  });
});
