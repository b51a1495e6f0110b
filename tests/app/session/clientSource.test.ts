// session/clientSource: the app's client created once on first need, and the stored-login check made
// without the client library.
import type { BloomClient } from '../../../src/client';
import { hasStoredLogin, lazyClientSource, readyClientSource } from '../../../src/app/session/clientSource';

const fakeClient = { tag: 'client' } as unknown as BloomClient;

describe('lazyClientSource', () => {
  it('creates nothing until loaded, then creates once and tells its subscribers', async () => {
    const create = jest.fn(() => Promise.resolve(fakeClient));
    const source = lazyClientSource(create);
    const listener = jest.fn();
    source.subscribe(listener);
    expect(source.current()).toBeUndefined();
    expect(create).not.toHaveBeenCalled();
    const first = source.load();
    expect(source.loading()).toBe(true);
    expect(source.load()).toBe(first);
    await expect(first).resolves.toBe(fakeClient);
    expect(create).toHaveBeenCalledTimes(1);
    expect(source.current()).toBe(fakeClient);
    expect(source.loading()).toBe(false);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('lets a failed download be tried again', async () => {
    const create = jest
      .fn<Promise<BloomClient>, []>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(fakeClient);
    const source = lazyClientSource(create);
    await expect(source.load()).rejects.toThrow('offline');
    expect(source.loading()).toBe(false);
    expect(source.current()).toBeUndefined();
    await expect(source.load()).resolves.toBe(fakeClient);
  });

  it('readyClientSource hands over an existing client', async () => {
    const source = readyClientSource(fakeClient);
    expect(source.current()).toBe(fakeClient);
    await expect(source.load()).resolves.toBe(fakeClient);
  });
});

describe('hasStoredLogin', () => {
  afterEach(() => localStorage.clear());

  it('is true only for a stored login with an access token', () => {
    expect(hasStoredLogin()).toBe(false);
    localStorage.setItem('@bloom/activeLogin', JSON.stringify({ accessToken: 'abc' }));
    expect(hasStoredLogin()).toBe(true);
    localStorage.setItem('@bloom/activeLogin', JSON.stringify({ refreshToken: 'r' }));
    expect(hasStoredLogin()).toBe(false);
    localStorage.setItem('@bloom/activeLogin', '{not json');
    expect(hasStoredLogin()).toBe(false);
    localStorage.setItem('@bloom/activeLogin', 'null');
    expect(hasStoredLogin()).toBe(false);
  });
});
