// The definition of a resource type for the generic pages (SPEC §7 schema load through the platform
// client's requestSchema, cached there after the first load). A name that is no resource type (not
// capitalised, unknown to the server, or a data type such as HumanName) is 'unknown'.
import type { TypeSchema } from '../../../client';
import { useBloomClient } from '../../session/BloomClientContext';
import { useLoaded } from './useLoaded';

export type ResourceSchemaState =
  | { readonly status: 'loading' }
  | { readonly status: 'unknown' }
  | { readonly status: 'ok'; readonly value: TypeSchema }
  | { readonly status: 'error'; readonly error: unknown };

const RESOURCE_TYPE_NAME = /^[A-Z][A-Za-z]{1,63}$/;

class UnknownResourceType extends Error {}

export function useResourceSchema(resourceType: string): ResourceSchemaState {
  const client = useBloomClient();
  const loaded = useLoaded(resourceType, async () => {
    if (!RESOURCE_TYPE_NAME.test(resourceType)) throw new UnknownResourceType();
    let schema: TypeSchema;
    try {
      schema = await client.requestSchema(resourceType);
    } catch (err) {
      // The client's SPEC §8 message when the server has no StructureDefinition of that name.
      if (err instanceof Error && err.message.startsWith('Unknown data type'))
        throw new UnknownResourceType();
      throw err;
    }
    if (schema.kind !== 'resource' || schema.name !== resourceType) throw new UnknownResourceType();
    return schema;
  });
  if (loaded.status === 'error' && loaded.error instanceof UnknownResourceType) return { status: 'unknown' };
  return loaded;
}
