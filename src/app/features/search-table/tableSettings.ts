// The user's table layout per resource type (issue #9: chosen fields, their order and column widths
// persist per user across sign-outs) kept in the server's key-value store (SPEC §3, §7 keyvalue/v1).
// The stored text is JSON; anything unreadable counts as no settings rather than breaking the table.
// Keys are named as Medplum's key-value API accepts them (issue #20): 'bloom-search-table-<Type>';
// a layout saved under the earlier 'bloom.search-table.<Type>' moves over on first read.
import { readSetting, type SettingsStore } from '../../session/savedSettings';

export interface TableSettings {
  readonly fields?: readonly string[];
  readonly widths?: Readonly<Record<string, number>>;
}

export function tableSettingsKey(resourceType: string): string {
  return `bloom-search-table-${resourceType}`;
}

/** Where layouts were saved before issue #20 (a key Medplum refuses). */
export function legacyTableSettingsKey(resourceType: string): string {
  return `bloom.search-table.${resourceType}`;
}

export function parseTableSettings(text: string | undefined): TableSettings {
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null) return {};
  const { fields, widths } = value as Record<string, unknown>;
  const settings: { fields?: string[]; widths?: Record<string, number> } = {};
  if (Array.isArray(fields) && fields.every((field) => typeof field === 'string') && fields.length > 0) {
    settings.fields = fields;
  }
  if (typeof widths === 'object' && widths !== null) {
    const valid = Object.entries(widths).filter(
      (entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] > 0 && entry[1] < 5000,
    );
    if (valid.length > 0) settings.widths = Object.fromEntries(valid);
  }
  return settings;
}

export async function loadTableSettings(store: SettingsStore, resourceType: string): Promise<TableSettings> {
  return parseTableSettings(
    await readSetting(store, tableSettingsKey(resourceType), legacyTableSettingsKey(resourceType)),
  );
}

export async function saveTableSettings(
  store: SettingsStore,
  resourceType: string,
  settings: TableSettings,
): Promise<void> {
  await store.set(tableSettingsKey(resourceType), JSON.stringify(settings));
}
