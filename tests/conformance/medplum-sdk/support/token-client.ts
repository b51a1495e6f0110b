// Medplum's MedplumClient signed in with tokens a test already holds (no sign-in flow), fetching for
// real and caching nothing, so every call reaches the server.
import './node-websocket';
import { MedplumClient } from '@medplum/core';
import type { Tokens } from '../../../server/auth/support/auth-fixtures';

export function tokenClient(baseUrl: string, tokens: Tokens): MedplumClient {
  const medplum = new MedplumClient({ baseUrl, fetch: globalThis.fetch.bind(globalThis), cacheTime: 0 });
  medplum.setAccessToken(tokens.access_token);
  return medplum;
}
