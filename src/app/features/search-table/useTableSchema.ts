// Loads one type's schema for the table through the StructureDefinitionList and SearchParameterList
// operations (SPEC §7 schema load, §9 100 parameters): the type's own parameters and the common ones
// every resource has (base Resource: _id, _lastUpdated...). Apollo's cache keeps the answers, so a
// second visit to the type (or its other pages) does not ask again.
import { useQuery } from '@apollo/client/react';
import { useMemo } from 'react';
import { SearchParameterListDocument } from '../../../graphql';
import { useSchemaLists } from '../../api/useSchemaLists';
import { buildTableSchema, type TableSchema } from './tableSchema';

export interface TableSchemaState {
  readonly loading: boolean;
  readonly error: Error | undefined;
  /** Undefined while loading, on error, or when the type is not a resource type the server knows. */
  readonly schema: TableSchema | undefined;
}

export function useTableSchema(resourceType: string): TableSchemaState {
  const own = useSchemaLists(resourceType);
  const common = useQuery(SearchParameterListDocument, { variables: { base: 'Resource' } });
  const definitionList = own.definitions;
  const ownList = own.parameters;
  const commonList = common.data?.SearchParameterList;
  const schema = useMemo(
    () =>
      definitionList && ownList && commonList
        ? buildTableSchema(resourceType, definitionList, [ownList, commonList])
        : undefined,
    [resourceType, definitionList, ownList, commonList],
  );
  const error = own.error ?? common.error;
  const loading = !error && !(definitionList && ownList && commonList);
  return { loading, error, schema };
}
