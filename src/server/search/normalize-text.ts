// String search is case- and accent-insensitive (FHIR R4 search, string): stored values and query
// values are folded the same way in JS, so one btree index (text_pattern_ops) serves prefix search
// on both engines without the unaccent extension (PGlite does not ship it).

/** Lower case, accents stripped, whitespace collapsed: 'Émilie  Smith' → 'emilie smith'. */
export function normalizeText(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Escapes LIKE wildcards so a user's '%' or '_' matches itself. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
