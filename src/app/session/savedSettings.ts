// The app's saved preferences in the platform's key-value store (SPEC §7 keyvalue/v1).
// Medplum's key-value API accepts only keys of ASCII letters, digits, '-' and '_', so the app's keys
// are named that way ('bloom-share-context'; the search tables' layouts share one key,
// 'bloom-search-tables', see features/search-table/tableSettings). Each preference is one read of its
// own key: an unset key answers 204 (undefined), and no earlier key name is ever asked for, since a
// dotted name is refused with a 400 that the browser logs as a console error.

/** The key-value calls the settings make (the platform client's keyValue). */
export interface SettingsStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}
