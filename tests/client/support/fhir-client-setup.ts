// A BloomClient over a fake fetch for the FHIR-call unit tests.
import { BloomClient } from '../../../src/client';
import type { BloomClientOptions } from '../../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../../src/client/storage';
import { fakeFetch } from './fake-fetch';
import type { FakeFetch } from './fake-fetch';
import { accessToken } from './tokens';

export const BASE = 'http://api.test/';
export const FHIR = `${BASE}fhir/R4/`;

export function signedInClient(options: BloomClientOptions = {}): { client: BloomClient; fake: FakeFetch } {
  const fake = fakeFetch();
  const storage = new PrefixedStorage(new MemoryStorage());
  storage.setObject('activeLogin', { accessToken: accessToken(), refreshToken: 'r1' });
  fake.on(
    'GET',
    '/auth/me',
    () => new Response(JSON.stringify({}), { headers: { 'content-type': 'application/json' } }),
  );
  const client = new BloomClient({ baseUrl: BASE, fetch: fake.fetch, storage, ...options });
  return { client, fake };
}
