import {
  ACTIVE_LOGIN_KEY,
  MemoryStorage,
  PrefixedStorage,
  classifyStorageEvent,
  createDefaultStorage,
  watchActiveLogin,
} from '../../src/client/storage';
import type { ActiveLoginChange, LoginState } from '../../src/client/storage';
import { detectEnvironment } from '../../src/client/settings';

const maria: LoginState = {
  accessToken: 'a1',
  refreshToken: 'r1',
  project: { reference: 'Project/clinic' },
  profile: { reference: 'Patient/maria' },
};

function storageEvent(key: string | null, newValue: string | null): Event {
  return Object.assign(new Event('storage'), { key, newValue });
}

describe('SPEC §3 stored login in a storage adapter', () => {
  test('strings and objects round-trip under the prefix; undefined removes', () => {
    const backend = new MemoryStorage();
    const storage = new PrefixedStorage(backend, 'p/');
    storage.setObject(ACTIVE_LOGIN_KEY, maria);
    expect(backend.getItem('p/activeLogin')).toBe(JSON.stringify(maria));
    expect(storage.getObject<LoginState>(ACTIVE_LOGIN_KEY)).toEqual(maria);
    storage.setString('codeVerifier', 'v');
    expect(storage.getString('codeVerifier')).toBe('v');
    storage.setString('codeVerifier', undefined);
    expect(storage.getString('codeVerifier')).toBeUndefined();
    expect(storage.backendKey('x')).toBe('p/x');
  });

  test('a value that is not JSON reads as absent', () => {
    const backend = new MemoryStorage();
    backend.setItem('@bloom/activeLogin', '{not json');
    expect(new PrefixedStorage(backend).getObject(ACTIVE_LOGIN_KEY)).toBeUndefined();
  });

  test('issue #5: clear removes this client’s keys only, never anybody else’s', () => {
    const backend = new MemoryStorage();
    backend.setItem('theme', 'dark');
    backend.setItem('other/activeLogin', 'x');
    const storage = new PrefixedStorage(backend, '@bloom/');
    storage.setObject(ACTIVE_LOGIN_KEY, maria);
    storage.setString('codeVerifier', 'v');
    storage.clear();
    expect(storage.getObject(ACTIVE_LOGIN_KEY)).toBeUndefined();
    expect(storage.getString('codeVerifier')).toBeUndefined();
    expect(backend.getItem('theme')).toBe('dark');
    expect(backend.getItem('other/activeLogin')).toBe('x');
    expect(backend.length).toBe(2);
  });

  test('memory in Node; localStorage in a browser page', () => {
    expect(detectEnvironment().isBrowser).toBe(false);
    const local = new MemoryStorage();
    (globalThis as unknown as { localStorage?: MemoryStorage }).localStorage = local;
    try {
      createDefaultStorage(true).setString('k', 'v');
      expect(local.getItem('@bloom/k')).toBe('v');
      createDefaultStorage(false).setString('k2', 'v');
      expect(local.getItem('@bloom/k2')).toBeNull();
    } finally {
      delete (globalThis as unknown as { localStorage?: MemoryStorage }).localStorage;
    }
  });

  test('a browser without usable localStorage (privacy mode) falls back to memory', () => {
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new Error('SecurityError');
      },
    });
    try {
      const storage = createDefaultStorage(true);
      storage.setString('k', 'v');
      expect(storage.getString('k')).toBe('v');
    } finally {
      delete (globalThis as { localStorage?: unknown }).localStorage;
    }
  });
});

describe('SPEC §4 a change of the active login in another tab', () => {
  const key = '@bloom/activeLogin';

  test('another person signed in → switched', () => {
    const aisha = { ...maria, accessToken: 'b1', profile: { reference: 'Patient/aisha' } };
    expect(classifyStorageEvent({ key, newValue: JSON.stringify(aisha) }, key, maria)).toEqual({
      kind: 'switched',
    });
  });

  test('another project with the same profile → switched', () => {
    const other = { ...maria, accessToken: 'b1', project: { reference: 'Project/other' } };
    expect(classifyStorageEvent({ key, newValue: JSON.stringify(other) }, key, maria)).toEqual({
      kind: 'switched',
    });
  });

  test('signed out in another tab (key removed, or storage cleared) → switched', () => {
    expect(classifyStorageEvent({ key, newValue: null }, key, maria)).toEqual({ kind: 'switched' });
    expect(classifyStorageEvent({ key: null }, key, maria)).toEqual({ kind: 'switched' });
  });

  test('signed in in another tab while this one had no login → switched', () => {
    expect(classifyStorageEvent({ key, newValue: JSON.stringify(maria) }, key, undefined)).toEqual({
      kind: 'switched',
    });
  });

  test('issue #5: same person, new tokens (another tab refreshed) → adopt the tokens, no reload', () => {
    const refreshed = { ...maria, accessToken: 'a2', refreshToken: 'r2' };
    expect(classifyStorageEvent({ key, newValue: JSON.stringify(refreshed) }, key, maria)).toEqual({
      kind: 'tokens',
      login: refreshed,
    });
  });

  test('events about other keys, or that change nothing, are ignored', () => {
    expect(classifyStorageEvent({ key: 'theme', newValue: 'x' }, key, maria)).toBeUndefined();
    expect(classifyStorageEvent({ key: '@bloom/codeVerifier', newValue: 'x' }, key, maria)).toBeUndefined();
    expect(classifyStorageEvent({ key, newValue: JSON.stringify(maria) }, key, maria)).toBeUndefined();
    expect(classifyStorageEvent({ key: null }, key, undefined)).toBeUndefined();
  });

  test('a malformed value counts as signed out', () => {
    expect(classifyStorageEvent({ key, newValue: '{"x":1}' }, key, maria)).toEqual({ kind: 'switched' });
    expect(classifyStorageEvent({ key, newValue: 'garbage' }, key, maria)).toEqual({ kind: 'switched' });
  });

  test('watchActiveLogin listens to storage events and stops when asked', () => {
    const source = new EventTarget();
    const changes: ActiveLoginChange[] = [];
    const stop = watchActiveLogin(
      source,
      key,
      () => maria,
      (c) => changes.push(c),
    );
    source.dispatchEvent(storageEvent('theme', 'x'));
    source.dispatchEvent(storageEvent(key, null));
    expect(changes).toEqual([{ kind: 'switched' }]);
    stop();
    source.dispatchEvent(storageEvent(key, null));
    expect(changes).toHaveLength(1);
  });
});
