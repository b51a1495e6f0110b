// One type's schema load through the typed operations (SPEC §7 "Schema load uses GraphQL queries
// StructureDefinitionList and SearchParameterList", §9 100 parameters): the definitions of that name
// and the type's own search parameters. Apollo's cache keeps the answers, so the search table and the
// resource pages of one type ask once between them.
import { useQuery } from '@apollo/client/react';
import {
  SearchParameterListDocument,
  StructureDefinitionListDocument,
  type SearchParameterListQuery,
  type StructureDefinitionListQuery,
} from '../../graphql';

export interface SchemaLists {
  /** Both answers are in (an answer may still be an empty or null list). */
  readonly loaded: boolean;
  readonly error: Error | undefined;
  readonly definitions: StructureDefinitionListQuery['StructureDefinitionList'] | undefined;
  readonly parameters: SearchParameterListQuery['SearchParameterList'] | undefined;
}

/** With `skip`, nothing is sent (a name that cannot be a type). */
export function useSchemaLists(resourceType: string, skip = false): SchemaLists {
  const definitions = useQuery(StructureDefinitionListDocument, { variables: { name: resourceType }, skip });
  const parameters = useQuery(SearchParameterListDocument, { variables: { base: resourceType }, skip });
  return {
    loaded: definitions.data !== undefined && parameters.data !== undefined,
    error: definitions.error ?? parameters.error,
    definitions: definitions.data?.StructureDefinitionList,
    parameters: parameters.data?.SearchParameterList,
  };
}
