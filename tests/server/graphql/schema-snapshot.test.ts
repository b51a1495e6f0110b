// The committed schema snapshot must be what the server builds (this test fails when they differ);
// `npm run schema` rewrites it. Also checks that building is
// deterministic and that the snapshot keeps the Medplum names the app's operations rely on.
import fs from 'node:fs';
import { buildSchema } from 'graphql';
import {
  buildSnapshotSchema,
  firstDifference,
  SCHEMA_SNAPSHOT_PATH,
  schemaSnapshot,
} from '../../../src/server/graphql/schema-snapshot';

describe('issue #6 schema snapshot', () => {
  const built = schemaSnapshot(buildSnapshotSchema());

  it(`${SCHEMA_SNAPSHOT_PATH} is what the server builds (run npm run schema after changing the schema)`, () => {
    const committed = fs.readFileSync(SCHEMA_SNAPSHOT_PATH, 'utf8');
    expect(firstDifference(committed, built)).toBeUndefined();
  });

  it('a second build prints the same text (deterministic)', () => {
    expect(firstDifference(built, schemaSnapshot(buildSnapshotSchema()))).toBeUndefined();
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

  it('SPEC §7 live updates (issue #8): the root subscription type is SubscriptionType, distinct from the FHIR Subscription resource', () => {
    const schema = buildSchema(built);
    const root = schema.getSubscriptionType();
    expect(root?.name).toBe('SubscriptionType');
    expect(schema.getType('Subscription')?.toString()).toBe('Subscription');
    const fields = root?.getFields() ?? {};
    expect(fields.CommunicationChanged.type.toString()).toBe('Communication');
    expect(fields.SubscriptionChanged.type.toString()).toBe('Subscription');
    const args = fields.CommunicationChanged.args.map((a) => a.name);
    expect(args).toEqual(expect.arrayContaining(['subject', 'sender', '_id', '_lastUpdated']));
    // A stream has no pages or order.
    for (const name of ['_count', '_offset', '_sort']) expect(args).not.toContain(name);
  });
});
