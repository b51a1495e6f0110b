// Key sets published by others (a client's jwksUri, Google's certs): jose fetches, caches and
// refreshes each; one per URL for the life of the process.
import { createRemoteJWKSet } from 'jose';

export type RemoteKeySet = ReturnType<typeof createRemoteJWKSet>;

const keySets = new Map<string, RemoteKeySet>();

export function remoteKeySet(url: string): RemoteKeySet {
  let keySet = keySets.get(url);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000 });
    keySets.set(url, keySet);
  }
  return keySet;
}
