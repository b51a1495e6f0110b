// The app's one platform client: the API base URL and app ClientApplication id from
// /config.json, the stored login in localStorage (SPEC §3 "Stored login"), and a lost session sends the
// browser to / (SPEC §2 "An unauthenticated session sends the browser to /"). Whatever the device kept
// for offline use is deleted when the signed-in profile changes (sign-out, another person).
import { BloomClient, createDefaultStorage } from '../../client';
import type { AppConfig } from '../config';
import { clearDeviceDataOnProfileChange } from '../offline/deviceData';

export function createAppClient(config: AppConfig, onUnauthenticated: () => void): BloomClient {
  const client = new BloomClient({
    baseUrl: config.baseUrl,
    clientId: config.clientId,
    storage: createDefaultStorage(true),
    onUnauthenticated,
  });
  clearDeviceDataOnProfileChange(client);
  return client;
}
