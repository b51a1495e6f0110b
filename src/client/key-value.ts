// keyvalue/v1/{key} (SPEC §3 "Key-value storage", §7 other platform calls): per-user text values,
// as MedplumClient's keyValue.get/set/delete.
import { OperationOutcomeError } from '../fhir/outcomes';
import type { RequestOptions } from './request';

export const KEY_VALUE_PATH = 'keyvalue/v1/';
const TEXT_PLAIN = 'text/plain';

/** The requests key-value storage makes (the client's own methods). */
export interface KeyValueRequester {
  get<T>(url: string, options?: RequestOptions): PromiseLike<T>;
  put<T>(url: string, body: unknown, contentType?: string, options?: RequestOptions): Promise<T>;
  delete<T>(url: string, options?: RequestOptions): Promise<T>;
}

function keyUrl(key: string): string {
  if (!key) {
    throw new Error('Missing key');
  }
  return KEY_VALUE_PATH + encodeURIComponent(key);
}

export class KeyValueClient {
  constructor(private readonly requester: KeyValueRequester) {}

  /** The value, or undefined when the key has none. Always read from the server, never the cache. */
  async get(key: string): Promise<string | undefined> {
    try {
      return await this.requester.get<string>(keyUrl(key), { cache: 'no-cache' });
    } catch (err) {
      if (err instanceof OperationOutcomeError && err.outcome.issue?.[0]?.code === 'not-found') {
        return undefined;
      }
      throw err;
    }
  }

  async set(key: string, value: string): Promise<void> {
    await this.requester.put(keyUrl(key), value, TEXT_PLAIN);
  }

  async delete(key: string): Promise<void> {
    await this.requester.delete(keyUrl(key));
  }
}
