// Bounds on what one JSON body may hold, checked once right after parsing and before any route
// sees it: nesting depth, elements per array, characters per string, and the characters FHIR
// forbids in a string (R4 datatypes.html#string: no control characters other than tab, CR and LF).
// Lone UTF-16 surrogates are not Unicode text at all and cannot be stored as UTF-8.
// The walk is iterative, so a body nested 10,000 levels deep is refused, never a stack overflow.

export interface InputLimits {
  /** Deepest nesting of arrays and objects in one JSON body. */
  maxDepth: number;
  /** Most elements in one JSON array. */
  maxArrayLength: number;
  /** Most UTF-16 code units in one JSON string (keys included). */
  maxStringLength: number;
}

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | undefined;
  key: string | number | undefined;
}

/** `$.entry[3].resource.name` for the element a frame holds. */
function pathOf(frame: Frame | undefined): string {
  const parts: string[] = [];
  for (let at = frame; at?.parent; at = at.parent) {
    parts.push(typeof at.key === 'number' ? `[${at.key}]` : `.${at.key}`);
  }
  return `$${parts.reverse().join('')}`;
}

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** Index of the first control character (other than tab, LF, CR) or unpaired surrogate; -1 if none. */
function forbiddenCharacterAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20) {
      if (code !== TAB && code !== LF && code !== CR) {
        return i;
      }
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) {
        return i;
      }
      i++;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return i;
    }
  }
  return -1;
}

function describeCharacter(text: string, index: number): string {
  const code = text.charCodeAt(index);
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return code >= 0xd800 && code <= 0xdfff
    ? `an unpaired surrogate (U+${hex}); strings must be valid Unicode`
    : `the control character U+${hex}; FHIR strings may hold no control characters other than tab, CR and LF`;
}

/** What is wrong with one string, or undefined when it is acceptable. */
export function stringProblem(
  text: string,
  limits: Pick<InputLimits, 'maxStringLength'>,
): string | undefined {
  if (text.length > limits.maxStringLength) {
    return `is ${text.length} characters long; the limit is ${limits.maxStringLength}`;
  }
  const at = forbiddenCharacterAt(text);
  return at < 0 ? undefined : `contains ${describeCharacter(text, at)}`;
}

/** The first limit a parsed JSON value breaks, as a sentence naming where; undefined if none. */
export function jsonLimitProblem(root: unknown, limits: InputLimits): string | undefined {
  const stack: Frame[] = [{ value: root, depth: 0, parent: undefined, key: undefined }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const { value, depth } = frame;
    if (typeof value === 'string') {
      const problem = stringProblem(value, limits);
      if (problem) {
        return `The string at ${pathOf(frame)} ${problem}`;
      }
      continue;
    }
    if (typeof value !== 'object' || value === null) {
      continue;
    }
    if (depth >= limits.maxDepth) {
      return `JSON is nested deeper than ${limits.maxDepth} levels at ${pathOf(frame)}`;
    }
    if (Array.isArray(value)) {
      if (value.length > limits.maxArrayLength) {
        return `The array at ${pathOf(frame)} has ${value.length} elements; the limit is ${limits.maxArrayLength}`;
      }
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i], depth: depth + 1, parent: frame, key: i });
      }
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const child: Frame = {
        value: (value as Record<string, unknown>)[key],
        depth: depth + 1,
        parent: frame,
        key,
      };
      const problem = stringProblem(key, limits);
      if (problem) {
        return `The property name at ${pathOf(child)} ${problem}`;
      }
      stack.push(child);
    }
  }
  return undefined;
}

/** Every bound on one request's work, as configured (src/server/config.ts). */
export interface RequestLimits extends InputLimits {
  /** Most entries in one batch or transaction Bundle. */
  maxBatchEntries: number;
  /** Most search parameters in one request, a repeated name counted each time. */
  maxSearchParameters: number;
  /** Most values over all search parameters of one request (a,b,c counts 3). */
  maxSearchValues: number;
  /** Most search index values (rows) one resource written by a caller may produce. */
  maxIndexValues: number;
  /** Milliseconds a client has to send a whole request. */
  requestTimeout: number;
}
