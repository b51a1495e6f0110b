// The README's configuration table is the one npm run docs:config writes from CONFIG_VARIABLES,
// and every environment variable the server reads is in that list.
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_VARIABLES } from '../../src/server/config';
import { renderConfigTable, TABLE_END, TABLE_START, withConfigTable } from '../../scripts/config-table';

const root = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(file);
    return /\.(ts|mjs)$/.test(entry.name) ? [file] : [];
  });
}

describe('README configuration table', () => {
  test('README.md holds exactly the table npm run docs:config writes', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    // On failure: run `npm run docs:config` and commit README.md.
    expect(withConfigTable(readme, CONFIG_VARIABLES)).toBe(readme);
  });

  test('a changed description or default makes the README stale', () => {
    const readme = `intro\n${TABLE_START}\n${renderConfigTable(CONFIG_VARIABLES)}\n${TABLE_END}\nrest\n`;
    const changed = CONFIG_VARIABLES.map((v) => (v.name === 'PORT' ? { ...v, default: '9999' } : v));
    const rewritten = withConfigTable(readme, changed);
    expect(rewritten).not.toBe(readme);
    expect(rewritten).toContain('| `PORT` | `9999` |');
    expect(rewritten.startsWith('intro\n') && rewritten.endsWith(`${TABLE_END}\nrest\n`)).toBe(true);
  });

  test('a README without the markers is an error, not a silent no-op', () => {
    expect(() => withConfigTable('# no table here\n', CONFIG_VARIABLES)).toThrow(/lacks the markers/);
  });

  test('cells escape pipes and keep "(unset …)" defaults unquoted', () => {
    const table = renderConfigTable([
      { name: 'X', default: '(unset)', description: 'a | b', parse: (raw) => raw },
      { name: 'Y', default: '1', description: 'y', parse: (raw) => raw },
    ]);
    expect(table.split('\n').slice(2)).toEqual(['| `X` | (unset) | a \\| b |', '| `Y` | `1` | y |']);
  });

  test('every variable src/server and scripts/start.mjs read from process.env is in the list', () => {
    const files = [...sourceFiles(path.join(root, 'src/server')), path.join(root, 'scripts/start.mjs')];
    const read = new Set<string>();
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      for (const match of text.matchAll(
        /process\.env\.([A-Z0-9_]+)|isSet\(process\.env, '([A-Z0-9_]+)'\)/g,
      )) {
        read.add(match[1] ?? match[2]);
      }
    }
    const listed = new Set(CONFIG_VARIABLES.map((v) => v.name));
    expect([...read].filter((name) => !listed.has(name))).toEqual([]);
    // The scan found the reads it should (a broken pattern would pass vacuously).
    expect([...read]).toEqual(expect.arrayContaining(['PORT', 'APP_PORT', 'APP_ORIGINS', 'DEMO_PASSWORD']));
  });
});
