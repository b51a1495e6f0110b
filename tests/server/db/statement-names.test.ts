// Repeated SQL as named prepared statements (src/server/db/statement-names.ts): which texts are
// named, that PostgreSQL really keeps them, and that a table changing shape under a prepared
// SELECT * still answers with the new shape (SPEC §9: the server keeps answering across migrations).
import type { Database } from '../../../src/server/db';
import { isStalePreparedStatement, StatementNames } from '../../../src/server/db/statement-names';
import { databases } from '../support/test-databases';

describe('StatementNames', () => {
  test('a parameterised text is named from its second run on, under one stable name', () => {
    const names = new StatementNames();
    expect(names.nameFor('SELECT $1::int', 1)).toBeUndefined();
    const name = names.nameFor('SELECT $1::int', 1);
    expect(name).toMatch(/^bloom_\d+$/);
    expect(names.nameFor('SELECT $1::int', 1)).toBe(name);
    names.nameFor('SELECT $1::text', 1);
    expect(names.nameFor('SELECT $1::text', 1)).not.toBe(name);
  });

  test('a text without parameters is never named (it may hold several statements)', () => {
    const names = new StatementNames();
    for (let i = 0; i < 5; i++) {
      expect(names.nameFor('BEGIN; SELECT 1; COMMIT', 0)).toBeUndefined();
    }
  });

  test('no more names than the cap; named texts keep theirs', () => {
    const names = new StatementNames(2, 1);
    const first = names.nameFor('SELECT $1 AS a', 1);
    const second = names.nameFor('SELECT $1 AS b', 1);
    expect([first, second].every(Boolean)).toBe(true);
    expect(names.nameFor('SELECT $1 AS c', 1)).toBeUndefined();
    expect(names.nameFor('SELECT $1 AS a', 1)).toBe(first);
  });

  test('a refused text goes unnamed from then on', () => {
    const names = new StatementNames(10, 1);
    expect(names.nameFor('SELECT $1 AS a', 1)).toBeDefined();
    names.refuse('SELECT $1 AS a');
    expect(names.nameFor('SELECT $1 AS a', 1)).toBeUndefined();
  });

  test('only the stale-plan refusal is retried', () => {
    const stale = Object.assign(new Error('cached plan must not change result type'), { code: '0A000' });
    const other = Object.assign(new Error('relation "x" does not exist'), { code: '42P01' });
    expect(isStalePreparedStatement(stale)).toBe(true);
    expect(isStalePreparedStatement(other)).toBe(false);
    expect(isStalePreparedStatement('cached plan must not change result type')).toBe(false);
  });
});

describe.each(databases())('repeated statements on %s', (engine, kind) => {
  let db: Database;

  beforeAll(async () => {
    db = await kind.open();
    await db.query('CREATE TABLE prepared_probe (id integer PRIMARY KEY, label text)');
    await db.query("INSERT INTO prepared_probe VALUES (1, 'one'), (2, 'two'), (3, 'three')");
  });

  afterAll(async () => {
    await db.close();
  });

  test('each run answers for its own parameters', async () => {
    const sql = 'SELECT label FROM prepared_probe WHERE id = $1';
    const labels: string[] = [];
    for (const id of [1, 2, 3, 1, 2, 3, 1, 2, 3]) {
      const { rows } = await db.query<{ label: string }>(sql, [id]);
      labels.push(rows[0].label);
    }
    expect(labels).toEqual(['one', 'two', 'three', 'one', 'two', 'three', 'one', 'two', 'three']);
  });

  test('PostgreSQL keeps a repeated statement prepared on the connection', async () => {
    const sql = 'SELECT count(*)::int AS n FROM prepared_probe WHERE id > $1';
    // One query at a time: the pool hands out its most recently released connection again.
    for (let i = 0; i < 3; i++) {
      expect((await db.query<{ n: number }>(sql, [1])).rows[0].n).toBe(2);
    }
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1',
      [sql],
    );
    // PGlite's query path prepares nothing by name; its answers are checked above.
    expect(rows[0].n).toBe(engine === 'postgres' ? 1 : 0);
  });

  test('a SELECT * prepared before the table gains a column answers with the column', async () => {
    const sql = 'SELECT * FROM prepared_probe WHERE id = $1';
    for (let i = 0; i < 3; i++) {
      expect((await db.query(sql, [1])).rows[0]).toEqual({ id: 1, label: 'one' });
    }
    await db.query("ALTER TABLE prepared_probe ADD COLUMN note text DEFAULT 'n'");
    for (let i = 0; i < 3; i++) {
      expect((await db.query(sql, [2])).rows[0]).toEqual({ id: 2, label: 'two', note: 'n' });
    }
  });

  test('statements in a transaction answer as before', async () => {
    const sql = 'SELECT label FROM prepared_probe WHERE id = $1';
    const labels = await db.transaction(async (tx) => {
      const out: string[] = [];
      for (const id of [3, 2, 1]) {
        out.push((await tx.query<{ label: string }>(sql, [id])).rows[0].label);
      }
      return out;
    });
    expect(labels).toEqual(['three', 'two', 'one']);
  });
});
