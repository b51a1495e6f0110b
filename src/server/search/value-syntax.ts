// Well-formedness of one search value by parameter type (FHIR R4 search §3.1.1.4): what a value
// must look like before it may reach SQL. Each check returns a reason when the value is malformed.
import type { SearchParameterType } from '../../fhir';
import { splitValuePrefix } from '../../fhir/search';

const DATE =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const ID = /^[A-Za-z0-9\-.]{1,64}$/;
const RELATIVE_REFERENCE = /^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}(?:\/_history\/[A-Za-z0-9\-.]{1,64})?$/;
const ABSOLUTE = /^(?:https?:\/\/|urn:)\S+$/;

function inRange(text: string | undefined, min: number, max: number): boolean {
  return text === undefined || (Number(text) >= min && Number(text) <= max);
}

/** A FHIR date, dateTime or instant at any precision (YYYY … YYYY-MM-DDThh:mm:ss.sss+zz:zz). */
export function dateProblem(value: string): string | undefined {
  const match = DATE.exec(value);
  if (!match) {
    return 'a date like 2020, 2020-01, 2020-01-31 or 2020-01-31T10:00:00Z';
  }
  const [, , month, day, hour, minute, second] = match;
  const valid =
    inRange(month, 1, 12) &&
    inRange(day, 1, 31) &&
    inRange(hour, 0, 23) &&
    inRange(minute, 0, 59) &&
    inRange(second, 0, 60);
  return valid ? undefined : 'a calendar date and time';
}

export function numberProblem(value: string): string | undefined {
  return NUMBER.test(value) ? undefined : 'a decimal number';
}

/** `number`, `number|system|code` or `number||code` (FHIR R4 search §3.1.1.4.8). */
export function quantityProblem(value: string): string | undefined {
  const parts = value.split('|');
  if (parts.length !== 1 && parts.length !== 3) {
    return 'a number, or number|system|code';
  }
  return numberProblem(parts[0]) && 'a number, or number|system|code';
}

/** `code`, `system|code`, `|code` or `system|`: at most one separating bar and not only a bar. */
export function tokenProblem(value: string): string | undefined {
  const bars = value.split('|').length - 1;
  return bars > 1 || value === '|' ? 'code, system|code, |code or system|' : undefined;
}

/** An id, Type/id (optionally versioned) or an absolute URL (FHIR R4 search §3.1.1.4.9). */
export function referenceProblem(value: string): string | undefined {
  return ID.test(value) || RELATIVE_REFERENCE.test(value) || ABSOLUTE.test(value)
    ? undefined
    : 'an id, Type/id or an absolute URL';
}

/** The reason `value` is not a well-formed value of an unmodified (or `:not`) parameter of this type. */
export function valueProblem(
  type: SearchParameterType,
  value: string,
  prefixed: boolean,
): string | undefined {
  if (value === '') {
    return 'a value';
  }
  // With mixed prefixes across OR values each value still carries its own prefix.
  const bare = prefixed ? splitValuePrefix(value)[1] : value;
  switch (type) {
    case 'date':
      return dateProblem(bare);
    case 'number':
      return numberProblem(bare);
    case 'quantity':
      return quantityProblem(bare);
    case 'token':
      return tokenProblem(value);
    case 'reference':
      return referenceProblem(value);
    case 'composite':
      return value.includes('$') ? undefined : 'component values joined by $';
    default:
      return undefined;
  }
}
