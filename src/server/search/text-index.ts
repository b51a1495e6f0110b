// `_text` and `_content` (FHIR R4 search §3.1.1.4.x, common parameters): full-text search of a
// resource's narrative and of all its text, with PostgreSQL's built-in text search (PGlite has it
// too). Stored resources get two search_text rows, written with the other index rows in the same
// statement; the query side turns the value into a websearch tsquery ("phrase", or, -not).
import type { Resource } from '@medplum/fhirtypes';
import type { TextRow } from './index-rows';
import { normalizeText } from './normalize-text';
import { TEXT_SEARCH_CONFIG } from './schema';
import type { SqlParams } from './sql-params';

/** Characters of text kept per row: PostgreSQL refuses tsvectors over 1 MB. */
const MAX_TEXT = 200_000;
/** Strings longer than this without a space are data (base64, signatures), not words. */
const MAX_WORD = 200;
/** Elements holding encoded data, never text. */
const DATA_KEYS = new Set(['data', 'div']);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The words of an XHTML narrative: tags dropped, entities decoded. */
export function narrativeText(div: string): string {
  return div.replace(/<[^>]*>/g, ' ').replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? entity;
  });
}

function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') {
    if (value.length <= MAX_WORD || /\s/.test(value)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectStrings(item, out);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!DATA_KEYS.has(key)) collectStrings(item, out);
    }
  }
}

function folded(text: string): string {
  return normalizeText(text).slice(0, MAX_TEXT);
}

/** The `_text` and `_content` rows of one resource. */
export function textRowsOf(resource: Resource): TextRow[] {
  const div = 'text' in resource ? resource.text?.div : undefined;
  const narrative = div ? narrativeText(div) : '';
  const strings: string[] = [];
  collectStrings(resource, strings);
  const rows: TextRow[] = [];
  if (narrative.trim()) rows.push({ code: '_text', value: folded(narrative) });
  const content = [narrative, ...strings].join(' ');
  if (content.trim()) rows.push({ code: '_content', value: folded(content) });
  return rows;
}

/** One `_text` / `_content` value as a condition on a search_text row `t`. */
export function textSearchCondition(p: SqlParams, value: string): string {
  const query = p.add(normalizeText(value));
  return `to_tsvector('${TEXT_SEARCH_CONFIG}', t.value) @@ websearch_to_tsquery('${TEXT_SEARCH_CONFIG}', ${query})`;
}
