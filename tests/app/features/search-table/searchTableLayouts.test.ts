// Every search table's layout under ONE key-value entry ('bloom-search-tables'), because
// Medplum's key-value API (and Bloom's) keeps at most 10 keys per user and 8192
// characters per value (SPEC §3 Key-value storage, §7 keyvalue/v1). Least recently used layouts make
// room; no key of earlier releases is read; unreadable values never break a table.
import {
  MAX_SETTING_LENGTH,
  SEARCH_TABLES_KEY,
  SearchTableLayouts,
  formatSearchTables,
  parseSearchTables,
  searchTableLayouts,
  type StoredTableSettings,
} from '../../../../src/app/features/search-table/tableSettings';
import type { SettingsStore } from '../../../../src/app/session/savedSettings';
import { createAppClient } from '../../../../src/app/session/createAppClient';
import { installFakeApi, testBaseUrl } from '../../support/fakeApi';

/** An in-memory store with the server's rules (10 keys, 8192 characters, Medplum's key pattern). */
class MemoryStore implements SettingsStore {
  readonly calls: string[] = [];
  readonly values = new Map<string, string>();
  readonly failing = new Set<string>();

  constructor(entries: Record<string, string> = {}) {
    for (const [key, value] of Object.entries(entries)) this.values.set(key, value);
  }

  private check(call: string, key: string): void {
    this.calls.push(`${call} ${key}`);
    if (!/^[A-Za-z0-9_-]{1,255}$/.test(key)) throw new Error('Invalid key');
    if (this.failing.has(`${call} ${key}`)) throw new Error(`${call} failed`);
  }

  async get(key: string): Promise<string | undefined> {
    this.check('get', key);
    return this.values.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    this.check('set', key);
    if (value.length > 8192) throw new Error('Value too long');
    if (!this.values.has(key) && this.values.size >= 10) throw new Error('Max items exceeded');
    this.values.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.check('delete', key);
    this.values.delete(key);
  }

  stored(): Map<string, StoredTableSettings> {
    return parseSearchTables(this.values.get(SEARCH_TABLES_KEY));
  }
}

/** A clock the test moves: each call is one millisecond later. */
function steppingClock(start = 1_000): () => number {
  let time = start;
  return () => time++;
}

const TYPES = [
  'Patient',
  'Observation',
  'Encounter',
  'Condition',
  'Practitioner',
  'Appointment',
  'Slot',
  'Schedule',
  'Communication',
  'Task',
  'MedicationRequest',
  'DiagnosticReport',
  'Questionnaire',
];

describe('issue #20 search table layouts under one key', () => {
  it('more than 10 types: all saved under the one key and read back in a new session with one request', async () => {
    const store = new MemoryStore({ 'bloom-share-context': 'on' });
    const tab = new SearchTableLayouts(store, steppingClock());
    for (const [index, type] of TYPES.entries()) {
      await tab.load(type);
      await tab.save(type, { fields: ['id', `field${index}`], widths: { id: 100 + index } });
    }
    expect([...store.values.keys()].sort()).toEqual(['bloom-search-tables', 'bloom-share-context']);
    expect(store.values.get(SEARCH_TABLES_KEY)!.length).toBeLessThanOrEqual(MAX_SETTING_LENGTH);

    store.calls.length = 0;
    const next = new SearchTableLayouts(store);
    for (const [index, type] of TYPES.entries()) {
      await expect(next.load(type)).resolves.toEqual({
        fields: ['id', `field${index}`],
        widths: { id: 100 + index },
      });
    }
    // Read once per session: every other table is served from memory.
    expect(store.calls).toEqual(['get bloom-search-tables']);
  });

  it('a save merges into the stored value: the other types and the earlier parts stay', async () => {
    const store = new MemoryStore();
    const tab = new SearchTableLayouts(store, steppingClock());
    await tab.save('Patient', { fields: ['name'] });
    await tab.save('Observation', { widths: { id: 90 } });
    await tab.save('Patient', { fields: ['name', 'birthDate'], widths: { name: 200 } });
    expect(Object.fromEntries(store.stored())).toEqual({
      Patient: { fields: ['name', 'birthDate'], widths: { name: 200 }, used: 1_002 },
      Observation: { widths: { id: 90 }, used: 1_001 },
    });
  });

  it('re-reads before writing: a save from another tab in between is kept', async () => {
    const store = new MemoryStore();
    const first = new SearchTableLayouts(store, steppingClock());
    const second = new SearchTableLayouts(store, steppingClock(5_000));
    await first.load('Observation');
    await second.load('Patient');
    await second.save('Patient', { fields: ['name'] });
    // The first tab's cached read predates that save; its write must not drop it.
    await first.save('Observation', { fields: ['status'] });
    expect([...store.stored().keys()].sort()).toEqual(['Observation', 'Patient']);
    // And the first tab now serves what it wrote, with the other tab's type.
    await expect(first.load('Patient')).resolves.toEqual({ fields: ['name'] });
  });

  it('saves of one tab made at once are written one after the other, none lost', async () => {
    const store = new MemoryStore();
    const tab = new SearchTableLayouts(store, steppingClock());
    await Promise.all(TYPES.slice(0, 5).map((type) => tab.save(type, { fields: ['id'] })));
    expect([...store.stored().keys()].sort()).toEqual([...TYPES.slice(0, 5)].sort());
  });

  it('when the value would pass 8192 characters the least recently used layouts go and the most recent stay', async () => {
    const store = new MemoryStore();
    const tab = new SearchTableLayouts(store, steppingClock());
    // ~960 characters per layout: eight fit.
    const wide = (type: string) => ({
      fields: Array.from({ length: 40 }, (_, i) => `${type}-${i}`.padEnd(20, 'x').slice(0, 20)),
    });
    for (const type of TYPES) await tab.save(type, wide(type));
    const text = store.values.get(SEARCH_TABLES_KEY)!;
    expect(text.length).toBeLessThanOrEqual(MAX_SETTING_LENGTH);
    const kept = [...store.stored().keys()];
    expect(kept.length).toBeGreaterThan(3);
    expect(kept.length).toBeLessThan(TYPES.length);
    // Exactly the most recently saved ones, the last one first of all.
    expect(kept.sort()).toEqual(TYPES.slice(TYPES.length - kept.length).sort());
    expect(kept).toContain('DiagnosticReport');
    expect(kept).toContain('Questionnaire');
  });

  it('opening a table counts as using it: an old layout opened this session outlives newer unopened ones', async () => {
    const store = new MemoryStore();
    const clock = steppingClock();
    const writer = new SearchTableLayouts(store, clock);
    const wide = (type: string) => ({
      fields: Array.from({ length: 40 }, (_, i) => `${type}-${i}`.padEnd(20, 'x').slice(0, 20)),
    });
    for (const type of TYPES.slice(0, 6)) await writer.save(type, wide(type));
    expect(store.stored().size).toBe(6);
    // A later session opens the oldest table, then saves new types until some must go.
    const reader = new SearchTableLayouts(store, clock);
    await reader.load('Patient');
    for (const type of TYPES.slice(6, 10)) await reader.save(type, wide(type));
    const kept = store.stored();
    expect(kept.size).toBe(8);
    expect(kept.has('Patient')).toBe(true);
    expect(kept.has('Observation')).toBe(false);
    expect(kept.has('Encounter')).toBe(false);
    expect(store.values.get(SEARCH_TABLES_KEY)!.length).toBeLessThanOrEqual(MAX_SETTING_LENGTH);
  });

  it('a single layout too long for the server fails its save and leaves the stored value as it was', async () => {
    const store = new MemoryStore();
    const tab = new SearchTableLayouts(store, steppingClock());
    await tab.save('Patient', { fields: ['name'] });
    const before = store.values.get(SEARCH_TABLES_KEY);
    const huge = { fields: Array.from({ length: 900 }, (_, i) => `field${i}`) };
    await expect(tab.save('Observation', huge)).rejects.toThrow('The Observation table layout is too long');
    expect(store.values.get(SEARCH_TABLES_KEY)).toBe(before);
    // Later saves still work.
    await tab.save('Encounter', { fields: ['status'] });
    expect([...store.stored().keys()].sort()).toEqual(['Encounter', 'Patient']);
  });

  it('formatSearchTables evicts oldest first and never the type being saved', () => {
    const layouts = new Map<string, StoredTableSettings>([
      ['Patient', { fields: ['a'.repeat(60)], used: 1 }],
      ['Observation', { fields: ['b'.repeat(60)], used: 3 }],
      ['Encounter', { fields: ['c'.repeat(60)], used: 2 }],
    ]);
    const text = formatSearchTables(layouts, 'Patient', 250);
    expect(text.length).toBeLessThanOrEqual(250);
    expect([...parseSearchTables(text).keys()].sort()).toEqual(['Observation', 'Patient']);
    expect(() => formatSearchTables(layouts, 'Patient', 50)).toThrow('too long to save');
  });
});

describe('issue #20 unreadable stored values', () => {
  it.each([
    ['not JSON', '{"tables":'],
    ['a JSON array', '[1,2]'],
    ['a string', '"Patient"'],
    ['null', 'null'],
    ['tables not an object', '{"tables":[{"fields":["id"]}]}'],
    ['the empty text', ''],
  ])(
    '%s reads as no layouts, the table uses its defaults, and the next save overwrites it',
    async (_name, text) => {
      const store = new MemoryStore({ [SEARCH_TABLES_KEY]: text });
      const tab = new SearchTableLayouts(store, steppingClock());
      await expect(tab.load('Patient')).resolves.toEqual({});
      await tab.save('Patient', { fields: ['name'] });
      expect(JSON.parse(store.values.get(SEARCH_TABLES_KEY)!)).toEqual({
        tables: { Patient: { fields: ['name'], used: expect.any(Number) } },
      });
    },
  );

  it('a bad entry is skipped alone; the good parts of the others stay', () => {
    const text = JSON.stringify({
      tables: {
        Patient: { fields: ['name'], widths: { name: 120, bad: -3, worse: 'wide' }, used: 7 },
        Observation: 'status',
        Encounter: { fields: [1, 2] },
        Condition: { fields: ['code'], used: 'yesterday' },
        Slot: null,
        'not a type': { fields: ['id'] },
        constructor: { fields: ['id'] },
      },
      extra: true,
    }).replace('"constructor"', '"__proto__"');
    const layouts = parseSearchTables(text);
    expect(Object.fromEntries(layouts)).toEqual({
      Patient: { fields: ['name'], widths: { name: 120 }, used: 7 },
      Condition: { fields: ['code'], used: 0 },
    });
    expect(({} as Record<string, unknown>).fields).toBeUndefined();
  });

  it('a store that cannot be read rejects this load (the table uses defaults) and the next load asks again', async () => {
    const store = new MemoryStore({
      [SEARCH_TABLES_KEY]: JSON.stringify({ tables: { Patient: { fields: ['name'], used: 1 } } }),
    });
    store.failing.add('get bloom-search-tables');
    const tab = new SearchTableLayouts(store);
    await expect(tab.load('Patient')).rejects.toThrow('get failed');
    store.failing.clear();
    await expect(tab.load('Patient')).resolves.toEqual({ fields: ['name'] });
  });
});

describe('search table layouts read no key of earlier releases', () => {
  it('a type the one key lacks: defaults, and no per-type or dotted key is asked for', async () => {
    const store = new MemoryStore({
      'bloom-search-table-Patient': JSON.stringify({ fields: ['name'] }),
      'bloom.search-table.Patient': JSON.stringify({ fields: ['gender'] }),
    });
    await expect(new SearchTableLayouts(store).load('Patient')).resolves.toEqual({});
    expect(store.calls).toEqual(['get bloom-search-tables']);
  });

  it("through the platform client: an unset key (Medplum's 404 as text) is one request and the defaults", async () => {
    const api = installFakeApi();
    api.once('GET keyvalue/v1/bloom-search-tables', 404, 'Not found');
    const client = createAppClient({ baseUrl: testBaseUrl }, () => undefined);
    await expect(new SearchTableLayouts(client.keyValue).load('Patient')).resolves.toEqual({});
    expect(api.sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET keyvalue/v1/bloom-search-tables']);
  });
});

describe('issue #20 one cache per store and signed-in user', () => {
  it('the same user gets the same layouts; another user of the same client starts afresh', () => {
    const store = new MemoryStore();
    expect(searchTableLayouts(store, 'Practitioner/1')).toBe(searchTableLayouts(store, 'Practitioner/1'));
    expect(searchTableLayouts(store, 'Practitioner/2')).not.toBe(searchTableLayouts(store, 'Practitioner/1'));
    expect(searchTableLayouts(new MemoryStore(), 'Practitioner/1')).not.toBe(
      searchTableLayouts(store, 'Practitioner/1'),
    );
  });
});

describe('the layout known before the key-value store answers (the first rows are asked for at once)', () => {
  function hintStore(initial?: string) {
    const box = { text: initial };
    return { box, store: { read: () => box.text, write: (text: string) => void (box.text = text) } };
  }

  it("the browser's copy stands in until this session's read answers, which then replaces it", async () => {
    const old = JSON.stringify({ tables: { Observation: { fields: ['code'], used: 1 } } });
    const current = JSON.stringify({ tables: { Observation: { fields: ['status'], used: 2 } } });
    const store = new MemoryStore({ [SEARCH_TABLES_KEY]: current });
    const { box, store: hints } = hintStore(old);
    const layouts = new SearchTableLayouts(store, Date.now, hints);
    expect(layouts.hint('Observation')).toEqual({ fields: ['code'] });
    expect(layouts.hint('Patient')).toBeUndefined();
    layouts.prefetch();
    await expect(layouts.load('Observation')).resolves.toEqual({ fields: ['status'] });
    expect(layouts.hint('Observation')).toEqual({ fields: ['status'] });
    expect(box.text).toBe(current);
    // One read for the prefetch and the load together.
    expect(store.calls).toEqual([`get ${SEARCH_TABLES_KEY}`]);
  });

  it("loaded(): nothing until this session's read answers (the browser's copy is only a guess), then the layout or {}", async () => {
    const store = new MemoryStore({
      [SEARCH_TABLES_KEY]: JSON.stringify({ tables: { Observation: { fields: ['status'], used: 2 } } }),
    });
    const { store: hints } = hintStore(
      JSON.stringify({ tables: { Observation: { fields: ['code'], used: 1 } } }),
    );
    const layouts = new SearchTableLayouts(store, Date.now, hints);
    expect(layouts.loaded('Observation')).toBeUndefined();
    layouts.prefetch();
    expect(layouts.loaded('Observation')).toBeUndefined();
    await layouts.load('Patient');
    expect(layouts.loaded('Observation')).toEqual({ fields: ['status'] });
    expect(layouts.loaded('Patient')).toEqual({});
    await layouts.save('Patient', { widths: { name: 300 } });
    expect(layouts.loaded('Patient')).toEqual({ widths: { name: 300 } });
  });

  it('a failed read leaves loaded() undefined', async () => {
    const store = new MemoryStore();
    store.failing.add(`get ${SEARCH_TABLES_KEY}`);
    const layouts = new SearchTableLayouts(store);
    await expect(layouts.load('Observation')).rejects.toThrow('get failed');
    expect(layouts.loaded('Observation')).toBeUndefined();
  });

  it('an unset key clears the copy; a save writes it', async () => {
    const store = new MemoryStore();
    const { box, store: hints } = hintStore(
      JSON.stringify({ tables: { Patient: { fields: ['name'], used: 1 } } }),
    );
    const layouts = new SearchTableLayouts(store, Date.now, hints);
    await layouts.load('Patient');
    expect(box.text).toBe('');
    expect(layouts.hint('Patient')).toBeUndefined();
    await layouts.save('Patient', { fields: ['gender'] });
    expect(layouts.hint('Patient')).toEqual({ fields: ['gender'] });
    expect(parseSearchTables(box.text).get('Patient')?.fields).toEqual(['gender']);
  });
});
