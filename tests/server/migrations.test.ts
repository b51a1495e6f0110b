// Each server module owns its tables: its migrations sit beside its routes and src/server/migrations.ts
// collects them. Databases migrated before the split (every version below) must be recognised as
// they are, or a server would try to create their tables again on start.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Patient } from '@medplum/fhirtypes';
import { migrate, openPGlite, openPostgres } from '../../src/server/db';
import type { Database, DatabaseEngine, Migration } from '../../src/server/db';
import { MODULE_MIGRATIONS, SERVER_MIGRATIONS, migrateServer } from '../../src/server/migrations';
import { parseSearchRequest } from '../../src/fhir/search';
import { Repository, systemContext } from '../../src/server/repo';
import { databases } from './support/test-databases';

/** Versions and names as the single list in db/migrations.ts recorded them, before modules owned their migrations. */
const RECORDED_BEFORE_MODULES: [number, string][] = [
  [1, 'resource store'],
  [2, 'identity lookups'],
  [3, 'used client assertion ids'],
  [4, 'sign-in failure counts'],
  [10, 'search index tables'],
  [16, 'full-text search index (_text, _content)'],
  [20, 'key-value store per user'],
  [21, 'idempotency keys'],
  [22, "key-value keys renamed to Medplum's key rule"],
  [40, 'live write notifications'],
  [60, 'fhircast hub'],
  [80, 'bulk export jobs'],
  [85, 'bot subscription jobs'],
  [86, 'agent connections and relay'],
  [87, 'per-type search tables (patient, code, date)'],
];

const probe = (version: number): Migration => ({
  version,
  name: `probe ${version}`,
  async up(tx) {
    await tx.query(`CREATE TABLE probe_${version} (x integer)`);
  },
});

test('every migration recorded before modules owned their migrations keeps its version, name and order', () => {
  const known = SERVER_MIGRATIONS.map((m): [number, string] => [m.version, m.name]);
  expect(known.slice(0, RECORDED_BEFORE_MODULES.length)).toEqual(RECORDED_BEFORE_MODULES);
});

test('each migration belongs to the module that owns its tables, one module per version', () => {
  const owners = Object.entries(MODULE_MIGRATIONS).flatMap(([module, list]) =>
    list.map((m) => [m.version, module] as const),
  );
  expect(new Set(owners.map(([version]) => version)).size).toBe(owners.length);
  expect(Object.fromEntries(owners)).toEqual({
    1: 'repo',
    2: 'repo',
    3: 'oauth',
    4: 'auth',
    10: 'search',
    16: 'search',
    20: 'keyvalue',
    21: 'idempotency',
    22: 'keyvalue',
    40: 'live',
    60: 'fhircast',
    80: 'export',
    85: 'bots',
    86: 'agents',
    87: 'search',
    90: 'fhircast',
  });
  // Each module's list is exported from its own folder, beside its routes.
  for (const module of Object.keys(MODULE_MIGRATIONS)) {
    expect(fs.existsSync(path.join('src/server', module, 'migrations.ts'))).toBe(true);
  }
});

test('db/ knows no feature: the only table it creates is its own record of applied migrations', () => {
  const dir = path.join('src/server/db');
  const created = fs
    .readdirSync(dir)
    .flatMap((file) => [
      ...fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/g),
    ])
    .map((match) => match[1]);
  expect(created).toEqual(['schema_migrations']);
});

/** A database with no tables at all, as a first start finds it. */
async function openEmpty(engine: DatabaseEngine): Promise<{ db: Database; drop(): Promise<void> }> {
  if (engine === 'pglite') {
    const db = await openPGlite();
    return { db, drop: () => db.close() };
  }
  const connectionString = process.env.TEST_DATABASE_URL as string;
  const schema = `test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const db = await openPostgres({ connectionString, schema, maxConnections: 2 });
  return {
    db,
    async drop() {
      await db.close();
      const admin = new pg.Client({ connectionString });
      await admin.connect();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}

describe.each(databases())('server migrations on %s', (engine) => {
  let empty: { db: Database; drop(): Promise<void> };

  beforeAll(async () => {
    empty = await openEmpty(engine);
  });

  afterAll(async () => {
    await empty.drop();
  });

  test('a database an earlier release left at version 40 gets the rest, and keeps its rows', async () => {
    const db = empty.db;
    const earlier = SERVER_MIGRATIONS.filter((m) => m.version <= 40);
    expect(await migrate(db, earlier)).toEqual([1, 2, 3, 4, 10, 16, 20, 21, 22, 40]);
    await db.query("INSERT INTO key_value (owner, key, value) VALUES ('User/u1', 'theme', 'dark')");

    expect(await migrateServer(db)).toEqual([60, 80, 85, 86, 87, 90]);
    expect(await migrateServer(db)).toEqual([]);

    const { rows } = await db.query<{ version: number; name: string }>(
      'SELECT version, name FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((row): [number, string] => [row.version, row.name])).toEqual([
      ...RECORDED_BEFORE_MODULES,
      [90, 'fhircast topic owners'],
    ]);
    const kept = await db.query('SELECT value FROM key_value WHERE owner = $1', ['User/u1']);
    expect(kept.rows).toEqual([{ value: 'dark' }]);
    // The resource store and every search table work: a write is found by a search.
    const repo = new Repository(db, systemContext());
    const patient = await repo.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ family: 'Okafor' }],
    });
    const found = await repo.search(parseSearchRequest('Patient?family=Okafor'));
    expect(found.resources.map((r) => r.id)).toEqual([patient.id]);
  });

  test('two modules claiming one version are refused before anything is applied', async () => {
    await expect(
      migrate(empty.db, [...SERVER_MIGRATIONS, probe(9100), { ...probe(20), name: 'clash' }]),
    ).rejects.toThrow("Migrations 'key-value store per user' and 'clash' both have version 20");
    const { rows } = await empty.db.query('SELECT 1 FROM schema_migrations WHERE version = 9100');
    expect(rows).toHaveLength(0);
  });
});
