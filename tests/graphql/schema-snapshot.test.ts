// The committed schema snapshot must be what the server builds (issue #6 "a test fails when the
// committed snapshot differs"); `npm run schema` rewrites it. Also checks that building is
// deterministic and that the snapshot keeps the Medplum names the app's operations rely on.
import fs from 'node:fs';
import { buildSchema } from 'graphql';
import { buildGraphQLSchema } from '../../src/server/graphql/schema';
import {
  firstDifference,
  SCHEMA_SNAPSHOT_PATH,
  schemaSnapshot,
} from '../../src/server/graphql/schema-snapshot';

describe('issue #6 schema snapshot', () => {
  const built = schemaSnapshot(buildGraphQLSchema());

  it(`${SCHEMA_SNAPSHOT_PATH} is what the server builds (run npm run schema after changing the schema)`, () => {
    const committed = fs.readFileSync(SCHEMA_SNAPSHOT_PATH, 'utf8');
    expect(firstDifference(committed, built)).toBeUndefined();
  });

  it('a second build prints the same text (deterministic)', () => {
    expect(firstDifference(built, schemaSnapshot(buildGraphQLSchema()))).toBeUndefined();
  });

  it('firstDifference names the first line that differs', () => {
    expect(firstDifference('a\nb\nc', 'a\nx\nc')).toBe('line 2: snapshot has "b", the server builds "x"');
    expect(firstDifference('a', 'a\nmore')).toBe('line 2: snapshot has undefined, the server builds "more"');
  });

  it('the snapshot is valid SDL with the Medplum names operations use', () => {
    const schema = buildSchema(built);
    const query = schema.getQueryType();
    expect(query?.name).toBe('QueryType');
    expect(schema.getMutationType()?.name).toBe('MutationType');
    const fields = query?.getFields() ?? {};
    for (const name of [
      'Patient',
      'PatientList',
      'PatientConnection',
      'CommunicationList',
      'StructureDefinitionList',
      'SearchParameterList',
    ]) {
      expect(fields[name]).toBeDefined();
    }
    expect(fields.CommunicationList.args.map((a) => a.name)).toEqual(
      expect.arrayContaining(['_count', '_offset', '_sort', 'subject', 'based_on', '_id', '_lastUpdated']),
    );
    expect(schema.getType('ResourceList')?.toString()).toBe('ResourceList');
    expect(schema.getType('PatientContact')).toBeDefined();
    expect(schema.getType('PatientCreate')).toBeDefined();
    expect(schema.getType('Patient_Communication_reference')).toBeDefined();
  });
});
