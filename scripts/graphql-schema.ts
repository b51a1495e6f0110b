// npm run schema: writes schema/schema.graphql from the server's GraphQL schema, and
// prints what it cost and how big the snapshot is. `--check` writes nothing and exits 1 when the
// committed snapshot differs from what the server builds (for CI).
import fs from 'node:fs';
import path from 'node:path';
import { buildSchema } from 'graphql';
import {
  buildSnapshotSchema,
  firstDifference,
  SCHEMA_SNAPSHOT_PATH,
  schemaSnapshot,
} from '../src/server/graphql/schema-snapshot';

const check = process.argv.includes('--check');
const start = performance.now();
const schema = buildSnapshotSchema();
const built = performance.now();
const sdl = schemaSnapshot(schema);
const printed = performance.now();
// What a codegen run pays first: reading the snapshot back into a schema.
buildSchema(sdl);
const reloaded = performance.now();

const types = Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__')).length;
const summary =
  `${types} types, ${(Buffer.byteLength(sdl) / 1e6).toFixed(2)} MB, ${sdl.split('\n').length} lines; ` +
  `built in ${(built - start).toFixed(0)} ms, printed in ${(printed - built).toFixed(0)} ms, ` +
  `SDL parsed back (as codegen loads it) in ${(reloaded - printed).toFixed(0)} ms`;

if (check) {
  const current = fs.existsSync(SCHEMA_SNAPSHOT_PATH) ? fs.readFileSync(SCHEMA_SNAPSHOT_PATH, 'utf8') : '';
  const difference = firstDifference(current, sdl);
  if (difference) {
    console.error(`${SCHEMA_SNAPSHOT_PATH} is out of date (${difference}): run npm run schema`);
    process.exit(1);
  }
  console.log(`${SCHEMA_SNAPSHOT_PATH} is up to date: ${summary}`);
} else {
  fs.mkdirSync(path.dirname(SCHEMA_SNAPSHOT_PATH), { recursive: true });
  fs.writeFileSync(SCHEMA_SNAPSHOT_PATH, sdl);
  console.log(`wrote ${SCHEMA_SNAPSHOT_PATH}: ${summary}`);
}
