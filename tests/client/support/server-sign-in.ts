// A BloomClient signed in to a real test server as an app signs in (startLogin, then processCode),
// with its login kept in memory.
import { DEFAULT_DEMO_PASSWORD } from '../../../src/server/seed/demo';
import { BloomClient } from '../../../src/client';
import type { BloomClientOptions } from '../../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../../src/client/storage';

export async function signedInClient(
  baseUrl: string,
  email: string,
  options: BloomClientOptions = {},
  password = DEFAULT_DEMO_PASSWORD,
): Promise<BloomClient> {
  const client = new BloomClient({ baseUrl, storage: new PrefixedStorage(new MemoryStorage()), ...options });
  const { code } = await client.startLogin({ email, password });
  await client.processCode(code as string);
  return client;
}
