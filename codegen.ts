// GraphQL codegen (issue #6; SPEC Design card): typed documents for operations/*.graphql, checked against
// the committed server schema snapshot. Only typescript-operations + typed-document-node: the
// `typescript` plugin would print every FHIR type (13 MB) and trips tsc on a duplicate identifier.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: process.env.BLOOM_OPERATIONS ?? 'operations/*.graphql',
  overwrite: true,
  generates: {
    'src/graphql/generated/operations.ts': {
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        // FHIR ids are strings both ways (the default would accept `string | number` for ID inputs).
        // JSON (ResourceSearch's resources) is whatever the server sent: the app checks it before use.
        scalars: { ID: 'string', JSON: 'unknown' },
        // Exact optionality: nullable fields are `T | null` in the answer, undefined only when skipped.
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
        enumsAsTypes: true,
        useTypeImports: true,
        dedupeFragments: true,
      },
    },
  },
};

export default config;
