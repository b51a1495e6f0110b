// FHIR R4 primitive types, SPEC §5 "Healthcare primitives". Patterns are the R4 specification's
// regular expressions (http://hl7.org/fhir/R4/datatypes.html), anchored; numbers are JSON numbers.

const YEAR = '([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)';
const MONTH = '(0[1-9]|1[0-2])';
const DAY = '(0[1-9]|[1-2][0-9]|3[0-1])';
const TIME = '([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]+)?';
const ZONE = '(Z|(\\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00))';

const STRING_PATTERNS: Record<string, RegExp> = {
  id: /^[A-Za-z0-9\-.]{1,64}$/,
  date: new RegExp(`^${YEAR}(-${MONTH}(-${DAY})?)?$`),
  dateTime: new RegExp(`^${YEAR}(-${MONTH}(-${DAY}(T${TIME}${ZONE})?)?)?$`),
  instant: new RegExp(`^${YEAR}-${MONTH}-${DAY}T${TIME}${ZONE}$`),
  time: new RegExp(`^${TIME}$`),
  uuid: /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  oid: /^urn:oid:[0-2](\.(0|[1-9][0-9]*))+$/,
  base64Binary: /^(\s*([0-9a-zA-Z+/=]){4}\s*)+$/,
  code: /^[^\s]+(\s[^\s]+)*$/,
  uri: /^\S*$/,
  url: /^\S*$/,
  canonical: /^\S*$/,
};

// Types whose JSON value is a string but whose content is free text.
const FREE_TEXT = new Set(['string', 'markdown', 'xhtml']);

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INTEGER_MINIMUM: Record<string, number> = { integer: INT32_MIN, unsignedInt: 0, positiveInt: 1 };

/** The FHIR primitive type names this module knows. */
export const PRIMITIVE_TYPES: ReadonlySet<string> = new Set([
  ...Object.keys(STRING_PATTERNS),
  ...FREE_TEXT,
  ...Object.keys(INTEGER_MINIMUM),
  'integer64',
  'decimal',
  'boolean',
]);

export function isPrimitiveType(type: string): boolean {
  return PRIMITIVE_TYPES.has(type);
}

/** Which JSON type a FHIR primitive is written as. */
export function primitiveJsonType(type: string): 'string' | 'number' | 'boolean' {
  if (type === 'boolean') return 'boolean';
  if (type === 'decimal' || type in INTEGER_MINIMUM) return 'number';
  return 'string';
}

// The patterns accept e.g. 2023-02-30; a real calendar day is required too.
function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) {
    return true; // year or year-month only: the pattern already checked it
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // unlike Date.UTC, keeps years 0-99 as they are
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function validateString(type: string, value: string): string | undefined {
  if (value === '') {
    return `Invalid empty ${type}`;
  }
  if (FREE_TEXT.has(type)) {
    return undefined;
  }
  const pattern = STRING_PATTERNS[type];
  if (pattern && !pattern.test(value)) {
    return `Invalid ${type} format`;
  }
  if ((type === 'date' || type === 'dateTime' || type === 'instant') && !isCalendarDate(value)) {
    return `Invalid ${type}: no such calendar day`;
  }
  return undefined;
}

function validateInteger(type: string, value: number): string | undefined {
  if (!Number.isInteger(value)) {
    return `Invalid ${type}: expected a whole number`;
  }
  if (value < INTEGER_MINIMUM[type] || value > INT32_MAX) {
    return `Invalid ${type}: out of range ${INTEGER_MINIMUM[type]}..${INT32_MAX}`;
  }
  return undefined;
}

function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Checks a JSON value against a FHIR primitive type (SPEC §5 "Healthcare primitives").
 * Returns undefined when valid, else a human-readable message.
 */
export function validatePrimitive(type: string, value: unknown): string | undefined {
  if (!isPrimitiveType(type)) {
    return `Unknown data type: ${type}`;
  }
  if (type === 'integer64') {
    // R5-style int64 used by a few Medplum elements: JSON string (or a safe JSON integer) of digits.
    const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
    return typeof text === 'string' && /^-?(0|[1-9][0-9]*)$/.test(text)
      ? undefined
      : 'Invalid integer64 format';
  }
  const expected = primitiveJsonType(type);
  if (typeof value !== expected) {
    return `Invalid JSON type for ${type}: expected ${expected}, got ${describeJsonType(value)}`;
  }
  if (expected === 'string') {
    return validateString(type, value as string);
  }
  if (expected === 'number') {
    if (!Number.isFinite(value)) {
      return `Invalid ${type}: not a finite number`;
    }
    return type === 'decimal' ? undefined : validateInteger(type, value as number);
  }
  return undefined;
}

/** SPEC §5: an id is 1 to 64 letters, digits, '-' or '.'. */
export function isValidId(id: unknown): id is string {
  return typeof id === 'string' && STRING_PATTERNS.id.test(id);
}
