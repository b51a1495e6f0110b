// Reading the build's source maps (Base64 VLQ mappings) for the app benchmarks: which source, and so
// which package or app folder, a span of a built chunk came from.

export interface SourceMap {
  readonly sources: readonly string[];
  readonly mappings: string;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((char, index) => [char, index]));

/** One segment's fields (Base64 VLQ, as the source map format encodes them). */
export function decodeSegment(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char);
    if (digit === undefined) throw new Error(`bad source map character ${char}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** The group a source belongs to: its package (node_modules), or its folder under src/. */
export function groupOf(source: string, depth = 1): string {
  const normalized = source.replace(/\\/g, '/');
  const modules = normalized.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = normalized.slice(modules + 'node_modules/'.length).split('/');
    const packageParts = parts[0].startsWith('@') ? 2 : 1;
    return parts.slice(0, packageParts + depth - 1).join('/');
  }
  const src = normalized.indexOf('src/');
  if (src >= 0) {
    const parts = normalized.slice(src).split('/');
    return parts.slice(0, Math.min(parts.length - 1, 2 + depth)).join('/') || normalized;
  }
  return normalized.replace(/^(\.\.\/)+/, '') || '(unmapped)';
}
