// The app's saved preferences under keys Medplum's key-value API accepts, and
// the one-time move of a value saved under the earlier dotted key (src/app/session/savedSettings.ts).
import { readSetting, type SettingsStore } from '../../../src/app/session/savedSettings';
import { createAppClient } from '../../../src/app/session/createAppClient';
import { installFakeApi, testBaseUrl } from '../support/fakeApi';
import { notFound } from '../../../src/fhir/outcomes';

/** An in-memory store that records calls; `refused` keys fail as a Medplum server refuses them. */
class MemoryStore implements SettingsStore {
  readonly calls: string[] = [];
  readonly values = new Map<string, string>();
  readonly failing = new Set<string>();

  constructor(
    entries: Record<string, string> = {},
    private readonly refused: (key: string) => boolean = () => false,
  ) {
    for (const [key, value] of Object.entries(entries)) this.values.set(key, value);
  }

  private check(call: string, key: string): void {
    this.calls.push(`${call} ${key}`);
    if (this.refused(key)) throw new Error('Invalid key');
    if (this.failing.has(call)) throw new Error(`${call} failed`);
  }

  async get(key: string): Promise<string | undefined> {
    this.check('get', key);
    return this.values.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    this.check('set', key);
    this.values.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.check('delete', key);
    this.values.delete(key);
  }
}

const dotted = (key: string) => key.includes('.');

describe('issue #20 readSetting', () => {
  it('reads the new key; the old key is not looked at when the new one has a value', async () => {
    const store = new MemoryStore({ 'bloom-share-context': 'on', 'bloom.share-context': 'off' });
    await expect(readSetting(store, 'bloom-share-context', 'bloom.share-context')).resolves.toBe('on');
    expect(store.calls).toEqual(['get bloom-share-context']);
  });

  it('moves a value saved under the old key: written under the new key, then the old key deleted', async () => {
    const store = new MemoryStore({ 'bloom.share-context': 'on' });
    await expect(readSetting(store, 'bloom-share-context', 'bloom.share-context')).resolves.toBe('on');
    expect(store.calls).toEqual([
      'get bloom-share-context',
      'get bloom.share-context',
      'set bloom-share-context',
      'delete bloom.share-context',
    ]);
    expect(Object.fromEntries(store.values)).toEqual({ 'bloom-share-context': 'on' });
    store.calls.length = 0;
    await expect(readSetting(store, 'bloom-share-context', 'bloom.share-context')).resolves.toBe('on');
    expect(store.calls).toEqual(['get bloom-share-context']);
  });

  it('with nothing under either key: undefined, nothing written, and the old key is read only once per store', async () => {
    const store = new MemoryStore();
    await expect(readSetting(store, 'bloom-share-context', 'bloom.share-context')).resolves.toBeUndefined();
    await expect(readSetting(store, 'bloom-share-context', 'bloom.share-context')).resolves.toBeUndefined();
    expect(store.calls).toEqual([
      'get bloom-share-context',
      'get bloom.share-context',
      'get bloom-share-context',
    ]);
    // Another legacy key of the same store is its own first look.
    await readSetting(store, 'bloom-search-table-Patient', 'bloom.search-table.Patient');
    expect(store.calls.slice(3)).toEqual([
      'get bloom-search-table-Patient',
      'get bloom.search-table.Patient',
    ]);
  });

  it('a server that refuses the old key (Medplum: 400 Invalid key) is no error: undefined, nothing written', async () => {
    const store = new MemoryStore({}, dotted);
    await expect(readSetting(store, 'bloom-share-context', 'bloom.share-context')).resolves.toBeUndefined();
    expect(store.calls).toEqual(['get bloom-share-context', 'get bloom.share-context']);
    expect(store.values.size).toBe(0);
  });

  it('a failure reading the new key is the caller’s: it rejects, and the old key is not read', async () => {
    const store = new MemoryStore({ 'bloom.share-context': 'on' });
    store.failing.add('get');
    await expect(readSetting(store, 'bloom-share-context', 'bloom.share-context')).rejects.toThrow(
      'get failed',
    );
    expect(store.calls).toEqual(['get bloom-share-context']);
  });

  it('when the new key cannot be written the old value still serves, stays where it is, and the move is tried again next time', async () => {
    const store = new MemoryStore({ 'bloom.share-context': 'on' });
    store.failing.add('set');
    await expect(readSetting(store, 'bloom-share-context', 'bloom.share-context')).resolves.toBe('on');
    expect(store.values.get('bloom.share-context')).toBe('on');
    store.failing.delete('set');
    await expect(readSetting(store, 'bloom-share-context', 'bloom.share-context')).resolves.toBe('on');
    expect(Object.fromEntries(store.values)).toEqual({ 'bloom-share-context': 'on' });
  });

  it('a failed delete of the old key still answers the moved value', async () => {
    const store = new MemoryStore({ 'bloom.search-table.Patient': '{"fields":["name"]}' });
    store.failing.add('delete');
    await expect(
      readSetting(store, 'bloom-search-table-Patient', 'bloom.search-table.Patient'),
    ).resolves.toBe('{"fields":["name"]}');
    expect(store.values.get('bloom-search-table-Patient')).toBe('{"fields":["name"]}');
  });

  it("through the platform client against Medplum's answers (404 'Not found' and 400 'Invalid key' as text): undefined, nothing written", async () => {
    const api = installFakeApi();
    api.once('GET keyvalue/v1/bloom-share-context', 404, 'Not found');
    api.once('GET keyvalue/v1/bloom.share-context', 400, 'Invalid key');
    const client = createAppClient({ baseUrl: testBaseUrl }, () => undefined);
    await expect(
      readSetting(client.keyValue, 'bloom-share-context', 'bloom.share-context'),
    ).resolves.toBeUndefined();
    expect(api.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET keyvalue/v1/bloom-share-context',
      'GET keyvalue/v1/bloom.share-context',
    ]);
  });

  it('through the platform client against an older Bloom server that still has the old key: moved', async () => {
    const api = installFakeApi();
    api.once('GET keyvalue/v1/bloom-share-context', 404, notFound);
    api.once('GET keyvalue/v1/bloom.share-context', 200, 'on');
    api.once('PUT keyvalue/v1/bloom-share-context', 204, '');
    api.once('DELETE keyvalue/v1/bloom.share-context', 204, '');
    const client = createAppClient({ baseUrl: testBaseUrl }, () => undefined);
    await expect(readSetting(client.keyValue, 'bloom-share-context', 'bloom.share-context')).resolves.toBe(
      'on',
    );
    expect(api.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET keyvalue/v1/bloom-share-context',
      'GET keyvalue/v1/bloom.share-context',
      'PUT keyvalue/v1/bloom-share-context',
      'DELETE keyvalue/v1/bloom.share-context',
    ]);
    expect(api.sent[2].headers.get('Content-Type')).toBe('text/plain');
  });
});
