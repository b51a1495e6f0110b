// The user's table layout per resource type (chosen fields, their order and column widths
// persist per user across sign-outs) kept in the server's key-value store (SPEC §3, §7 keyvalue/v1).
// Medplum's key-value API keeps at most 10 keys per user and 8192 characters per value, so
// every type's layout lives under ONE key, 'bloom-search-tables', as JSON
// {"tables":{"<Type>":{"fields":[...],"widths":{...},"used":<ms>}}}. When the text would pass 8192
// characters the least recently used types' layouts are dropped. The value is read once per session
// (then served from memory) and read again right before every write, so a save from another tab is
// merged, not lost. Anything unreadable counts as no settings rather than breaking the table, and is
// overwritten by the next save. Keys of earlier releases (one per type) are never read: asking for
// them cost a request per type, and the dotted ones a 400 the browser logs as a console error.
import type { SettingsStore } from '../../session/savedSettings';

export interface TableSettings {
  readonly fields?: readonly string[];
  readonly widths?: Readonly<Record<string, number>>;
}

/** The one key holding every type's layout. */
export const SEARCH_TABLES_KEY = 'bloom-search-tables';

/** Medplum's (and Bloom's) limit on a key-value value, in characters. */
export const MAX_SETTING_LENGTH = 8192;

/** A type's layout as stored, with when the user last used that type's table (ms since 1970). */
export interface StoredTableSettings extends TableSettings {
  readonly used: number;
}

/** A resource type's name as a property name (also keeps '__proto__' and the like out). */
const RESOURCE_TYPE = /^[A-Z][A-Za-z0-9]{0,63}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The good parts of a stored layout; anything else is ignored. */
function layoutFrom(value: unknown): TableSettings {
  if (!isRecord(value)) return {};
  const { fields, widths } = value;
  const settings: { fields?: string[]; widths?: Record<string, number> } = {};
  if (Array.isArray(fields) && fields.every((field) => typeof field === 'string') && fields.length > 0) {
    settings.fields = fields;
  }
  if (isRecord(widths)) {
    const valid = Object.entries(widths).filter(
      (entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] > 0 && entry[1] < 5000,
    );
    if (valid.length > 0) settings.widths = Object.fromEntries(valid);
  }
  return settings;
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The layouts in the value of SEARCH_TABLES_KEY, by resource type. Text that is not JSON or not of
 * the expected shape reads as no layouts; an entry that is not a layout is skipped alone.
 */
export function parseSearchTables(text: string | undefined): Map<string, StoredTableSettings> {
  const layouts = new Map<string, StoredTableSettings>();
  const value = parseJson(text);
  if (!isRecord(value) || !isRecord(value.tables)) return layouts;
  for (const [resourceType, entry] of Object.entries(value.tables)) {
    if (!RESOURCE_TYPE.test(resourceType) || !isRecord(entry)) continue;
    const settings = layoutFrom(entry);
    if (settings.fields === undefined && settings.widths === undefined) continue;
    const used = typeof entry.used === 'number' && Number.isFinite(entry.used) ? entry.used : 0;
    layouts.set(resourceType, { ...settings, used });
  }
  return layouts;
}

function serialize(layouts: ReadonlyMap<string, StoredTableSettings>): string {
  return JSON.stringify({ tables: Object.fromEntries(layouts) });
}

/**
 * The text to store for `layouts`, at most `limit` characters: the least recently used types'
 * layouts are dropped until it fits; `keep` (the type being saved) is dropped last of all and, when
 * even alone it does not fit, the save fails rather than storing a value the server refuses.
 * `layouts` is left as stored (evicted entries removed).
 */
export function formatSearchTables(
  layouts: Map<string, StoredTableSettings>,
  keep: string,
  limit = MAX_SETTING_LENGTH,
): string {
  let text = serialize(layouts);
  if (text.length <= limit) return text;
  const oldestFirst = [...layouts.entries()]
    .filter(([resourceType]) => resourceType !== keep)
    .sort((a, b) => a[1].used - b[1].used)
    .map(([resourceType]) => resourceType);
  for (const resourceType of oldestFirst) {
    layouts.delete(resourceType);
    text = serialize(layouts);
    if (text.length <= limit) return text;
  }
  throw new Error(`The ${keep} table layout is too long to save`);
}

function withoutTime(stored: StoredTableSettings): TableSettings {
  const { used: _used, ...settings } = stored;
  return settings;
}

/**
 * A copy of the stored value in this browser (localStorage), read synchronously: only a guess of the
 * user's layout, so the first rows can be asked for while the key-value read is still on its way.
 */
export interface LayoutHintStore {
  read(): string | undefined;
  write(text: string): void;
}

/** The layouts of one signed-in user in one store, for the session (see the top of the file). */
export class SearchTableLayouts {
  private stored: Promise<Map<string, StoredTableSettings>> | undefined;
  /** What the last read or write of this session found, once it has answered. */
  private known: Map<string, StoredTableSettings> | undefined;
  /** Types whose table the user opened this session, and when: they count as used at the next write. */
  private readonly viewed = new Map<string, number>();
  /** Writes of this tab, one at a time, so they never undo each other. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: SettingsStore,
    private readonly now: () => number = Date.now,
    private readonly hints?: LayoutHintStore,
  ) {}

  /** Starts the read (once per session) without marking a type viewed; settles when it has answered. */
  prefetch(): Promise<void> {
    return this.read().then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * The type's layout as best known right now, without waiting: this session's read once it has
   * answered, else the copy this browser kept from an earlier session, else undefined.
   */
  hint(resourceType: string): TableSettings | undefined {
    const layouts = this.known ?? parseSearchTables(this.hints?.read());
    const layout = layouts.get(resourceType);
    return layout ? withoutTime(layout) : undefined;
  }

  /**
   * The type's layout ({} when none) once this session's read has answered, else undefined: a table
   * opened after the read starts with its layout instead of rendering once without it.
   */
  loaded(resourceType: string): TableSettings | undefined {
    if (!this.known) return undefined;
    const layout = this.known.get(resourceType);
    return layout ? withoutTime(layout) : {};
  }

  /** The type's layout ({} when none). Rejects only when the store cannot be read at all. */
  async load(resourceType: string): Promise<TableSettings> {
    this.viewed.set(resourceType, this.now());
    const layout = (await this.read()).get(resourceType);
    return layout ? withoutTime(layout) : {};
  }

  /** Saves the type's whole layout, merged into what the store holds now. */
  save(resourceType: string, settings: TableSettings): Promise<void> {
    return this.serially(() => this.write(resourceType, settings));
  }

  private read(): Promise<Map<string, StoredTableSettings>> {
    if (!this.stored) {
      const reading = this.store.get(SEARCH_TABLES_KEY).then((text) => this.remember(text));
      this.stored = reading;
      // A failed read is not remembered: the next table tries again.
      reading.catch(() => {
        if (this.stored === reading) this.stored = undefined;
      });
    }
    return this.stored;
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.writes.then(task, task);
    this.writes = run.catch(() => undefined);
    return run;
  }

  /** Read-modify-write of SEARCH_TABLES_KEY. */
  private async write(resourceType: string, settings: TableSettings): Promise<void> {
    // Read again right before writing: another tab may have saved other types since this one read.
    const layouts = parseSearchTables(await this.store.get(SEARCH_TABLES_KEY));
    for (const [viewedType, at] of this.viewed) {
      const entry = layouts.get(viewedType);
      if (entry && entry.used < at) layouts.set(viewedType, { ...entry, used: at });
    }
    layouts.set(resourceType, { ...settings, used: this.now() });
    const text = formatSearchTables(layouts, resourceType);
    await this.store.set(SEARCH_TABLES_KEY, text);
    this.remember(text);
    this.stored = Promise.resolve(layouts);
  }

  /** Keeps what the store holds as this session's known layouts and as the browser's hint. */
  private remember(text: string | undefined): Map<string, StoredTableSettings> {
    const layouts = parseSearchTables(text);
    this.known = layouts;
    this.hints?.write(text ?? '');
    return layouts;
  }
}

/** One SearchTableLayouts per store and signed-in user: the cache lives as long as the client. */
const sessions = new WeakMap<SettingsStore, Map<string, SearchTableLayouts>>();

export function searchTableLayouts(
  store: SettingsStore,
  owner: string,
  hints?: LayoutHintStore,
): SearchTableLayouts {
  const byOwner = sessions.get(store) ?? new Map<string, SearchTableLayouts>();
  sessions.set(store, byOwner);
  let layouts = byOwner.get(owner);
  if (!layouts) {
    layouts = new SearchTableLayouts(store, Date.now, hints);
    byOwner.set(owner, layouts);
  }
  return layouts;
}
