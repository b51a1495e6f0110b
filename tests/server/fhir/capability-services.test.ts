// /metadata declares the platform services' operations (SPEC §7 $export, Bot
// $execute/$deploy, Agent $push): Bulk Data clients find $export at system, Patient and Group
// level under Bulk Data's OperationDefinitions; Medplum clients find Bot and Agent operations.
import type { CapabilityStatement, CapabilityStatementRestResourceOperation } from '@medplum/fhirtypes';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

type Operation = CapabilityStatementRestResourceOperation;

describe('CapabilityStatement of the platform services (issue #10)', () => {
  let server: TestServer;
  let statement: CapabilityStatement;

  beforeAll(async () => {
    const [[, pglite]] = databases();
    server = await startTestServer(pglite);
    const response = await fetch(`${server.fhirUrl}metadata`);
    expect(response.status).toBe(200);
    statement = (await response.json()) as CapabilityStatement;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  const named = (operations: Operation[] | undefined) =>
    (operations ?? []).map(({ name, definition }) => ({ name, definition }));
  const operationsOf = (type: string) =>
    named(statement.rest?.[0].resource?.find((resource) => resource.type === type)?.operation);

  test('SPEC §7 $export at system level, Patient/$export and Group/{id}/$export, as Bulk Data defines them', () => {
    expect(named(statement.rest?.[0].operation)).toEqual([
      { name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export' },
    ]);
    expect(operationsOf('Patient')).toContainEqual({
      name: 'export',
      definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export',
    });
    expect(operationsOf('Group')).toContainEqual({
      name: 'export',
      definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export',
    });
    const system = statement.rest?.[0].operation?.[0].documentation ?? '';
    expect(system).toMatch(/respond-async/);
  });

  test('SPEC §7 Bot $execute and $deploy, Agent $push; other types declare only $validate', () => {
    expect(operationsOf('Bot').map((op) => op.name)).toEqual(['validate', 'execute', 'deploy']);
    const execute = statement.rest?.[0].resource
      ?.find((resource) => resource.type === 'Bot')
      ?.operation?.find((op) => op.name === 'execute');
    expect(execute?.documentation).toMatch(/require\('@medplum\/core'\)/);
    expect(execute?.documentation).toMatch(/Hl7Message/);
    expect(operationsOf('Agent').map((op) => op.name)).toEqual(['validate', 'push']);
    expect(operationsOf('Observation').map((op) => op.name)).toEqual(['validate']);
  });
});
