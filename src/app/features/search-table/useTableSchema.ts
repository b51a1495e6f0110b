// Loads one type's schema for the table (SPEC §7 schema load, §9 100 parameters): the
// StructureDefinitionList query asking only the elements' paths and types (StructureDefinitionFields:
// the definitions' text is most of a full answer and the table never shows it), the type's own search
// parameters and the common ones every resource has (base Resource: _id, _lastUpdated...). Apollo's
// cache keeps the answers, so a second visit to the type (or its other pages) does not ask again.
import { skipToken, useQuery } from '@apollo/client/react';
import { useMemo } from 'react';
import { SearchParameterListDocument, StructureDefinitionFieldsDocument } from '../../../graphql';
import { buildTableSchema, type TableSchema } from './tableSchema';

export interface TableSchemaState {
  readonly loading: boolean;
  readonly error: Error | undefined;
  /** Undefined while loading, on error, or when the type is not a resource type the server knows. */
  readonly schema: TableSchema | undefined;
}

/** `skip`: not yet (the schema is still on its way in requests the table waits for): loading. */
export function useTableSchema(resourceType: string, skip = false): TableSchemaState {
  const definitions = useQuery(
    StructureDefinitionFieldsDocument,
    skip ? skipToken : { variables: { name: resourceType } },
  );
  const own = useQuery(SearchParameterListDocument, skip ? skipToken : { variables: { base: resourceType } });
  const common = useQuery(
    SearchParameterListDocument,
    skip ? skipToken : { variables: { base: 'Resource' } },
  );
  const definitionList = definitions.data?.StructureDefinitionList;
  const ownList = own.data?.SearchParameterList;
  const commonList = common.data?.SearchParameterList;
  const schema = useMemo(
    () =>
      definitionList && ownList && commonList
        ? buildTableSchema(resourceType, definitionList, [ownList, commonList])
        : undefined,
    [resourceType, definitionList, ownList, commonList],
  );
  const error = definitions.error ?? own.error ?? common.error;
  const loading = !error && !(definitionList && ownList && commonList);
  return { loading, error, schema };
}
