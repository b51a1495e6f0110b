// Medplum's own SDK as the referee for keyvalue/v1 (SPEC §7 other platform calls): MedplumClient
// 5.2.13, unchanged, reads a key nobody has set as undefined (the server's 204 No Content), stores,
// reads and deletes a value, and one user's value is never another's.
import './support/node-websocket';
import type { MedplumClient } from '@medplum/core';
import type { Tokens } from '../../server/auth/support/auth-fixtures';
import { startClinic } from '../../server/operations/support/clinic';
import type { Clinic } from '../../server/operations/support/clinic';
import { databases } from '../../server/support/test-databases';
import { tokenClient } from './support/token-client';

const client = (clinic: Clinic, tokens: Tokens): MedplumClient => tokenClient(clinic.server.baseUrl, tokens);

describe.each(databases())("Medplum's MedplumClient: keyValue on %s", (_engine, kind) => {
  let clinic: Clinic;

  beforeAll(async () => {
    clinic = await startClinic(kind);
  });

  afterAll(async () => {
    await clinic.server.close();
  });

  test('keyValue.get of a key not set resolves undefined; set, get and delete round-trip', async () => {
    const maria = client(clinic, clinic.maria);
    await expect(maria.keyValue.get('bloom-share-context')).resolves.toBeUndefined();
    await maria.keyValue.set('bloom-share-context', 'on');
    await expect(maria.keyValue.get('bloom-share-context')).resolves.toBe('on');
    await maria.keyValue.delete('bloom-share-context');
    await expect(maria.keyValue.get('bloom-share-context')).resolves.toBeUndefined();
  });

  test("one user's value is never another's: Dr. Chen reads Maria's key as not set", async () => {
    const maria = client(clinic, clinic.maria);
    const chen = client(clinic, clinic.chen);
    await maria.keyValue.set('bloom-search-table-Observation', 'maria-columns');
    await expect(chen.keyValue.get('bloom-search-table-Observation')).resolves.toBeUndefined();
    await expect(maria.keyValue.get('bloom-search-table-Observation')).resolves.toBe('maria-columns');
    await maria.keyValue.delete('bloom-search-table-Observation');
  });

  test('a key Medplum refuses is still an error for the client (400 Invalid key), not undefined', async () => {
    const maria = client(clinic, clinic.maria);
    await expect(maria.keyValue.get('bad.key')).rejects.toThrow('Invalid key');
  });
});
