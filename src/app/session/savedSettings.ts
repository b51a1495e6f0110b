// The app's saved preferences in the platform's key-value store (SPEC §7 keyvalue/v1).
// Medplum's key-value API accepts only keys of ASCII letters, digits, '-' and '_', so
// the app's keys are named that way ('bloom-share-context'; the search tables' layouts share one key,
// 'bloom-search-tables', see features/search-table/tableSettings); the values users saved under the
// earlier dotted names move over the first time the new name has none.

/** The key-value calls the settings make (the platform client's keyValue). */
export interface SettingsStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Legacy keys already looked at, per store: the old key is read once, not on every screen. */
const lookedAt = new WeakMap<SettingsStore, Set<string>>();

/**
 * The value of `key`. When it has none, the value saved under `legacyKey` is moved to it (written
 * under `key`, then deleted) and returned. A server that refuses the legacy key (Medplum, or Bloom
 * since migration 22, answer 400 'Invalid key') or does not have it leaves nothing to move: that is
 * not an error. A failure reading `key` itself is the caller's to handle.
 */
export async function readSetting(
  store: SettingsStore,
  key: string,
  legacyKey: string,
): Promise<string | undefined> {
  const value = await store.get(key);
  if (value !== undefined) {
    return value;
  }
  const seen = lookedAt.get(store) ?? new Set<string>();
  lookedAt.set(store, seen);
  if (seen.has(legacyKey)) {
    return undefined;
  }
  seen.add(legacyKey);
  let legacy: string | undefined;
  try {
    legacy = await store.get(legacyKey);
  } catch {
    return undefined;
  }
  if (legacy === undefined) {
    return undefined;
  }
  try {
    await store.set(key, legacy);
  } catch {
    // Not moved: the old value still serves this time, and the move is tried again next time.
    seen.delete(legacyKey);
    return legacy;
  }
  // A failed delete leaves a stray old value; the new key is read first from now on.
  await store.delete(legacyKey).catch(() => undefined);
  return legacy;
}
