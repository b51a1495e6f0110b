// The definition of a resource type for the generic pages (SPEC §7 schema load): the typed
// StructureDefinitionList and SearchParameterList operations through Apollo, their answers built into
// a TypeSchema by the platform client's schema store (which keeps it for the client's other users). A
// name that is no resource type (not capitalised, unknown to the server, or a data type such as
// HumanName) is 'unknown'; a name that cannot be a type is never sent.
import { useMemo } from 'react';
import type { TypeSchema } from '../../../client';
import { useSchemaLists } from '../../api/useSchemaLists';
import { useBloomClient } from '../../session/BloomClientContext';

export type ResourceSchemaState =
  | { readonly status: 'loading' }
  | { readonly status: 'unknown' }
  | { readonly status: 'ok'; readonly value: TypeSchema }
  | { readonly status: 'error'; readonly error: unknown };

const RESOURCE_TYPE_NAME = /^[A-Z][A-Za-z]{1,63}$/;

export function useResourceSchema(resourceType: string): ResourceSchemaState {
  const client = useBloomClient();
  const named = RESOURCE_TYPE_NAME.test(resourceType);
  const { loaded, error, definitions, parameters } = useSchemaLists(resourceType, !named);
  return useMemo((): ResourceSchemaState => {
    if (!named) return { status: 'unknown' };
    if (error) return { status: 'error', error };
    if (!loaded) return { status: 'loading' };
    let schema: TypeSchema;
    try {
      schema = client.getSchema().indexSchemaLists(resourceType, definitions, parameters);
    } catch (err) {
      // The schema store's SPEC §8 message when the server has no StructureDefinition of that name.
      if (err instanceof Error && err.message.startsWith('Unknown data type')) return { status: 'unknown' };
      return { status: 'error', error: err };
    }
    if (schema.kind !== 'resource' || schema.name !== resourceType) return { status: 'unknown' };
    return { status: 'ok', value: schema };
  }, [client, resourceType, named, loaded, error, definitions, parameters]);
}
