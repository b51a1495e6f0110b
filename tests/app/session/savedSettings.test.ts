// The app's saved preferences (SPEC §7 keyvalue/v1): every key the app reads is one Medplum's
// key-value API accepts, an unset key reads as undefined in one request (Bloom's 204 and Medplum's
// 404 alike), and no earlier dotted key name is ever asked for (a 400 the browser logs).
import { SHARE_CONTEXT_SETTING } from '../../../src/app/session/share/ShareContextProvider';
import { SEARCH_TABLES_KEY } from '../../../src/app/features/search-table/tableSettings';
import { createAppClient } from '../../../src/app/session/createAppClient';
import { installFakeApi, testBaseUrl } from '../support/fakeApi';
import { notFound } from '../../../src/fhir/outcomes';

/** Medplum's key-value key rule: ASCII letters, digits, '-' and '_'. */
const MEDPLUM_KEY = /^[A-Za-z0-9_-]{1,255}$/;

describe('saved settings keys', () => {
  it.each([SHARE_CONTEXT_SETTING, SEARCH_TABLES_KEY])('%s is a key Medplum accepts', (key) => {
    expect(key).toMatch(MEDPLUM_KEY);
  });

  it.each([
    ["Bloom's 204", 204, ''],
    ["Medplum's 404 as text", 404, 'Not found'],
    ['a 404 OperationOutcome', 404, notFound],
  ])('an unset key (%s) reads as undefined in one request', async (_name, status, body) => {
    const api = installFakeApi();
    api.once(`GET keyvalue/v1/${SHARE_CONTEXT_SETTING}`, status, body);
    const client = createAppClient({ baseUrl: testBaseUrl }, () => undefined);
    await expect(client.keyValue.get(SHARE_CONTEXT_SETTING)).resolves.toBeUndefined();
    expect(api.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET keyvalue/v1/${SHARE_CONTEXT_SETTING}`,
    ]);
  });

  it('a refused read (400) is an error the caller sees, not a silent default', async () => {
    const api = installFakeApi();
    api.once(`GET keyvalue/v1/${SHARE_CONTEXT_SETTING}`, 400, 'Invalid key');
    const client = createAppClient({ baseUrl: testBaseUrl }, () => undefined);
    await expect(client.keyValue.get(SHARE_CONTEXT_SETTING)).rejects.toThrow();
  });
});
