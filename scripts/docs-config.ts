// npm run docs:config: writes the README's configuration table from src/server/config.ts.
import fs from 'node:fs';
import { CONFIG_VARIABLES } from '../src/server/config';
import { withConfigTable } from './config-table';

const file = new URL('../README.md', import.meta.url);
const before = fs.readFileSync(file, 'utf8');
const after = withConfigTable(before, CONFIG_VARIABLES);
if (after === before) {
  console.log('README.md: configuration table already up to date');
} else {
  fs.writeFileSync(file, after);
  console.log(`README.md: configuration table rewritten (${CONFIG_VARIABLES.length} variables)`);
}
