// The SQL layer on each engine: migrations, queries, transactions.
import { migrate } from '../../../src/server/db';
import type { Database, Migration } from '../../../src/server/db';
import { SERVER_MIGRATIONS } from '../../../src/server/migrations';
import { databases } from '../support/test-databases';

describe.each(databases())('database on %s', (engine, kind) => {
  let db: Database;

  beforeAll(async () => {
    db = await kind.open();
  });

  afterAll(async () => {
    await db.close();
  });

  test('reports its engine', () => {
    expect(db.engine).toBe(engine);
  });

  test('JIT never compiles a statement (short search statements; issue #4)', async () => {
    // PGlite says jit is on but is built without a JIT provider (jit_provider unavailable).
    const { rows } = await db.query<{ jit: string; available: boolean }>(
      "SELECT current_setting('jit') AS jit, pg_jit_available() AS available",
    );
    expect(rows[0].jit === 'off' || !rows[0].available).toBe(true);
    if (engine === 'postgres') expect(rows[0].jit).toBe('off');
  });

  test('every migration is recorded once, and migrating again applies nothing', async () => {
    expect(await migrate(db, SERVER_MIGRATIONS)).toEqual([]);
    const { rows } = await db.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((row) => row.version)).toEqual(SERVER_MIGRATIONS.map((m) => m.version));
  });

  test('a new migration is applied in order and recorded', async () => {
    const extra = {
      version: 9001,
      name: 'test table',
      async up(tx: Parameters<Migration['up']>[0]) {
        await tx.query('CREATE TABLE migration_probe (x integer)');
      },
    };
    expect(await migrate(db, [...SERVER_MIGRATIONS, extra])).toEqual([9001]);
    expect(await migrate(db, [...SERVER_MIGRATIONS, extra])).toEqual([]);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM migration_probe');
    expect(rows[0]).toEqual({ n: 0 });
  });

  test('a failing migration is rolled back entirely and not recorded', async () => {
    const failing = {
      version: 9002,
      name: 'fails halfway',
      async up(tx: Parameters<Migration['up']>[0]) {
        await tx.query('CREATE TABLE half_done (x integer)');
        await tx.query('SELECT * FROM no_such_table');
      },
    };
    await expect(migrate(db, [...SERVER_MIGRATIONS, failing])).rejects.toThrow(/no_such_table/);
    const { rows } = await db.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'half_done'",
    );
    expect(rows[0]).toEqual({ n: 0 });
    const recorded = await db.query('SELECT 1 FROM schema_migrations WHERE version = 9002');
    expect(recorded.rows).toHaveLength(0);
  });

  test('parameters round-trip: text, numbers, booleans, null, jsonb and text[]', async () => {
    const { rows } = await db.query<{ t: string; n: number; b: boolean; z: null; j: unknown; a: string[] }>(
      'SELECT $1::text AS t, $2::int AS n, $3::boolean AS b, $4::text AS z, $5::jsonb AS j, $6::text[] AS a',
      ['héllo', 42, true, null, JSON.stringify({ k: [1, 'two'] }), ['Patient/1', 'Patient/2']],
    );
    expect(rows[0]).toEqual({
      t: 'héllo',
      n: 42,
      b: true,
      z: null,
      j: { k: [1, 'two'] },
      a: ['Patient/1', 'Patient/2'],
    });
  });

  test('a transaction commits when its function resolves', async () => {
    await db.query('CREATE TABLE IF NOT EXISTS tx_probe (x integer)');
    const result = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_probe VALUES (1)');
      return 'done';
    });
    expect(result).toBe('done');
    const { rows } = await db.query('SELECT count(*)::int AS n FROM tx_probe WHERE x = 1');
    expect(rows[0]).toEqual({ n: 1 });
  });

  test('a transaction rolls back every statement when its function throws, and rethrows', async () => {
    await db.query('CREATE TABLE IF NOT EXISTS tx_probe (x integer)');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe VALUES (2)');
        await tx.query('INSERT INTO tx_probe VALUES (2)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const { rows } = await db.query('SELECT count(*)::int AS n FROM tx_probe WHERE x = 2');
    expect(rows[0]).toEqual({ n: 0 });
  });

  test('a failing statement rolls the transaction back and the database stays usable', async () => {
    await db.query('CREATE TABLE IF NOT EXISTS tx_probe (x integer)');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe VALUES (3)');
        await tx.query('INSERT INTO tx_probe VALUES ($1)', ['not a number']);
      }),
    ).rejects.toThrow();
    const { rows } = await db.query('SELECT count(*)::int AS n FROM tx_probe WHERE x = 3');
    expect(rows[0]).toEqual({ n: 0 });
  });

  test('concurrent transactions do not interleave their writes', async () => {
    await db.query('CREATE TABLE IF NOT EXISTS counter_probe (id integer PRIMARY KEY, n integer)');
    await db.query('INSERT INTO counter_probe VALUES (1, 0) ON CONFLICT (id) DO NOTHING');
    await Promise.all(
      Array.from({ length: 10 }, () =>
        db.transaction(async (tx) => {
          const { rows } = await tx.query<{ n: number }>(
            'SELECT n FROM counter_probe WHERE id = 1 FOR UPDATE',
          );
          await tx.query('UPDATE counter_probe SET n = $1 WHERE id = 1', [rows[0].n + 1]);
        }),
      ),
    );
    const { rows } = await db.query('SELECT n FROM counter_probe WHERE id = 1');
    expect(rows[0]).toEqual({ n: 10 });
  });
});
