// Which value input a filter gets (SPEC §5 "Value input by parameter type: reference, boolean, date,
// datetime, number, quantity, otherwise text"). Boolean, date and datetime come from the element the
// parameter searches: a token over a boolean element is a yes/no, a date parameter over a 'date'
// element takes a day, over dateTime/instant/Period a date and time.
import type { SearchParameterType } from '../../../fhir/definitions';
import { Operator, splitValuePrefix, type Filter } from '../../../fhir/search';

export type ValueInputKind = 'reference' | 'boolean' | 'date' | 'datetime' | 'number' | 'quantity' | 'text';

export function valueInputKind(type: SearchParameterType, elementTypes: readonly string[]): ValueInputKind {
  switch (type) {
    case 'reference':
      return 'reference';
    case 'number':
      return 'number';
    case 'quantity':
      return 'quantity';
    case 'date':
      return elementTypes.length > 0 && elementTypes.every((code) => code === 'date') ? 'date' : 'datetime';
    case 'token':
      return elementTypes.length > 0 && elementTypes.every((code) => code === 'boolean') ? 'boolean' : 'text';
    default:
      return 'text';
  }
}

/** SPEC §5 quantity comparators: blank, <, <=, >=, > and the FHIR prefixes they send. */
export const QUANTITY_COMPARATORS = [
  { symbol: '', prefix: undefined },
  { symbol: '<', prefix: Operator.LESS_THAN },
  { symbol: '<=', prefix: Operator.LESS_THAN_OR_EQUALS },
  { symbol: '>=', prefix: Operator.GREATER_THAN_OR_EQUALS },
  { symbol: '>', prefix: Operator.GREATER_THAN },
] as const;

export interface QuantityValue {
  readonly comparator: string;
  readonly number: string;
  readonly system: string;
  readonly unit: string;
}

/** `ge5.4|http://unitsofmeasure.org|mg` → comparator '>=', number, system and unit kept apart. */
export function parseQuantityValue(value: string): QuantityValue {
  // The comparator is read even before a number follows it ('le' while the number is still empty).
  const comparatorEntry = QUANTITY_COMPARATORS.find(
    (entry) => entry.prefix && value.startsWith(entry.prefix),
  );
  const rest = comparatorEntry ? value.slice(2) : value;
  const [number = '', system = '', unit = ''] = rest.split('|');
  return { comparator: comparatorEntry?.symbol ?? '', number, system, unit };
}

/** The FHIR quantity search value: `[prefix]number[|system|unit]`; the unit is never dropped. */
export function formatQuantityValue(quantity: QuantityValue): string {
  const prefix = QUANTITY_COMPARATORS.find((entry) => entry.symbol === quantity.comparator)?.prefix ?? '';
  const unitPart = quantity.unit || quantity.system ? `|${quantity.system}|${quantity.unit}` : '';
  return `${prefix}${quantity.number}${unitPart}`;
}

/** A filter's value as the Filters table shows it: a quantity as '5.4 mg' (its system in brackets),
 * not its wire form '5.4||mg'; anything else as typed. */
export function filterValueText(type: SearchParameterType | undefined, value: string): string {
  if (type !== 'quantity') return value;
  const { number, system, unit } = parseQuantityValue(value);
  return [number, unit, system ? `(${system})` : ''].filter(Boolean).join(' ');
}

/**
 * A filter as saved. The comparator input is offered only with 'equals' (./FilterValueInput): there a
 * comparator typed into a quantity's value becomes the filter's operator, so the URL and the Filters
 * table say '>= 5.4 mg' once, the way the server reads it. With any other operation that operation is
 * what was asked for: a comparator left in the value from before is dropped, never sent as 'nelt5'.
 */
export function normalizeFilter(type: SearchParameterType, filter: Filter): Filter {
  if (type !== 'quantity' || filter.operator === Operator.MISSING) return filter;
  const [prefix, rest] = splitValuePrefix(filter.value);
  if (!prefix) return filter;
  return filter.operator === Operator.EQUALS
    ? { ...filter, operator: prefix, value: rest }
    : { ...filter, value: rest };
}
