// `tsx bench/app/chunk-composition.ts [chunk-name-prefix ...]`: what each built chunk of dist/app carries,
// read from the build's source maps: bytes per package (or per app source folder) of every chunk, raw
// and an estimate of its brotli share (each part compressed alone, scaled to the chunk's real .br size,
// so the shares add up to what the wire carries). Names the code to move when a screen nears its
// budget. CHUNK_DEPTH=2 splits packages by their first folder (e.g. @mui/material/Button).
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { decodeSegment, groupOf as groupAt, type SourceMap } from './source-map';

const ASSETS = path.resolve(process.env.APP_DIR ?? 'dist/app', 'assets');
const depth = Number(process.env.CHUNK_DEPTH ?? 1) || 1;
const minKb = Number(process.env.CHUNK_MIN_KB ?? 0.3);
const groupOf = (source: string) => groupAt(source, depth);

/** The chunk's text split by the group of the source each span comes from. */
function composition(code: string, map: SourceMap): Map<string, string[]> {
  const parts = new Map<string, string[]>();
  const add = (group: string, text: string) => {
    if (text === '') return;
    const list = parts.get(group) ?? [];
    list.push(text);
    parts.set(group, list);
  };
  const lines = code.split('\n');
  let sourceIndex = 0;
  map.mappings.split(';').forEach((line, lineIndex) => {
    const text = lines[lineIndex] ?? '';
    let column = 0;
    let start = 0;
    let group = '(unmapped)';
    for (const segment of line.split(',')) {
      if (segment === '') continue;
      const fields = decodeSegment(segment);
      column += fields[0];
      add(group, text.slice(start, column));
      start = column;
      if (fields.length >= 4) {
        sourceIndex += fields[1];
        group = groupOf(map.sources[sourceIndex] ?? '(unmapped)');
      } else {
        group = '(unmapped)';
      }
    }
    add(group, text.slice(start) + '\n');
  });
  return parts;
}

const brotli = (text: string) =>
  brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

const prefixes = process.argv.slice(2);
const chunks = fs
  .readdirSync(ASSETS)
  .filter((file) => file.endsWith('.js') && fs.existsSync(path.join(ASSETS, `${file}.map`)))
  .filter((file) => prefixes.length === 0 || prefixes.some((prefix) => file.startsWith(prefix)));

for (const file of chunks) {
  const code = fs.readFileSync(path.join(ASSETS, file), 'utf8');
  const map = JSON.parse(fs.readFileSync(path.join(ASSETS, `${file}.map`), 'utf8')) as SourceMap;
  const brFile = path.join(ASSETS, `${file}.br`);
  const wire = fs.existsSync(brFile) ? fs.statSync(brFile).size : brotli(code);
  const groups = [...composition(code, map)].map(([group, texts]) => {
    const text = texts.join('');
    return { group, raw: Buffer.byteLength(text), br: brotli(text) };
  });
  const brSum = groups.reduce((sum, g) => sum + g.br, 0);
  console.log(
    `${file}: ${(Buffer.byteLength(code) / 1024).toFixed(1)} KB raw, ${(wire / 1024).toFixed(1)} KB brotli`,
  );
  for (const g of groups.sort((a, b) => b.br - a.br)) {
    const share = (g.br / brSum) * wire;
    if (share / 1024 < minKb) continue;
    console.log(
      `  ${(share / 1024).toFixed(1).padStart(6)} KB br  ${(g.raw / 1024).toFixed(1).padStart(7)} KB raw  ${g.group}`,
    );
  }
}
