// Which filter operators each search-parameter type offers (SPEC §5 "Operators by type"; §2 per-column
// menu). Only what the type allows is offered, and each choice sends exactly what its label says:
// 'Does not equal' is ':not' on strings, tokens, references and URIs, and the 'ne' prefix on ordered
// types. 'Does not contain' (strings) has no modifier in FHIR R4: it is the `_filter` expression
// `not (<param> co "<value>")` (src/fhir/search/not-contains), shown under its parameter.
import type { SearchParameterType } from '../../../fhir/definitions';
import { notContainsFilter, Operator, readNotContains, type Filter } from '../../../fhir/search';
import { normalizeFilter } from './valueInputKind';

/** A choice in the Filters dialog's Operation select: an operator, and for missing its fixed value. */
export interface OperatorChoice {
  readonly id: string;
  readonly label: string;
  readonly operator: Operator;
  /** Set when the choice needs no value input (missing / not missing). */
  readonly fixedValue?: string;
}

const choice = (id: string, label: string, operator: Operator, fixedValue?: string): OperatorChoice =>
  fixedValue === undefined ? { id, label, operator } : { id, label, operator, fixedValue };

export const MISSING_CHOICE = choice('missing', 'missing', Operator.MISSING, 'true');
export const NOT_MISSING_CHOICE = choice('not-missing', 'not missing', Operator.MISSING, 'false');

const EQUALS = choice('eq', 'equals', Operator.EQUALS);
/** Its filter is built by filterOfChoice (a `_filter`), not from `operator`. */
export const NOT_CONTAINS_CHOICE = choice('not-contains', 'does not contain', Operator.CONTAINS);
const NOT = choice('not', 'not equals', Operator.NOT);
const NE = choice('ne', 'not equals', Operator.NOT_EQUALS);
const ORDERED: OperatorChoice[] = [
  EQUALS,
  NE,
  choice('gt', 'greater than', Operator.GREATER_THAN),
  choice('lt', 'less than', Operator.LESS_THAN),
  choice('ge', 'greater than or equals', Operator.GREATER_THAN_OR_EQUALS),
  choice('le', 'less than or equals', Operator.LESS_THAN_OR_EQUALS),
];
const DATE_ONLY: OperatorChoice[] = [
  choice('sa', 'starts after', Operator.STARTS_AFTER),
  choice('eb', 'ends before', Operator.ENDS_BEFORE),
  choice('ap', 'approximately', Operator.APPROXIMATELY),
];

/** SPEC §5: string: eq, not, contains, exact; token and reference: eq, not; numeric and quantity: eq,
 * ne, gt, lt, ge, le; date: those plus sa, eb, ap. Every type also offers missing and not missing. */
export function operatorChoices(type: SearchParameterType): OperatorChoice[] {
  const missing = [MISSING_CHOICE, NOT_MISSING_CHOICE];
  switch (type) {
    case 'string':
      return [
        EQUALS,
        NOT,
        choice('contains', 'contains', Operator.CONTAINS),
        NOT_CONTAINS_CHOICE,
        choice('exact', 'exact', Operator.EXACT),
        ...missing,
      ];
    case 'token':
    case 'reference':
    case 'uri':
      return [EQUALS, NOT, ...missing];
    case 'number':
    case 'quantity':
      return [...ORDERED, ...missing];
    case 'date':
      return [...ORDERED, ...DATE_ONLY, ...missing];
    case 'composite':
    case 'special':
      return missing;
  }
}

/** The filter a choice makes on parameter `code` with the value typed. */
export function filterOfChoice(code: string, choice: OperatorChoice, value: string): Filter {
  if (choice.id === NOT_CONTAINS_CHOICE.id) return notContainsFilter(code, value);
  return { code, operator: choice.operator, value: choice.fixedValue ?? value };
}

/** The parameter a filter is on, and the value a person typed: a 'does not contain' `_filter` reads
 * as its parameter and value; any other filter as itself. */
export function filterTarget(filter: Filter): { code: string; value: string } {
  return readNotContains(filter) ?? { code: filter.code, value: filter.value };
}

/** The choice a stored filter corresponds to (for the Filters dialog's table and edit row). */
export function choiceOfFilter(type: SearchParameterType, filter: Filter): OperatorChoice | undefined {
  if (readNotContains(filter)) return type === 'string' ? NOT_CONTAINS_CHOICE : undefined;
  return operatorChoices(type).find(
    (candidate) =>
      candidate.operator === filter.operator &&
      (candidate.fixedValue === undefined || candidate.fixedValue === filter.value),
  );
}

/** What a filter reads as in the Filters dialog's Operation column. */
export function operatorLabel(type: SearchParameterType, filter: Filter): string {
  return choiceOfFilter(type, filter)?.label ?? filter.operator;
}

export type ColumnMenuAction =
  | 'sort-asc'
  | 'sort-desc'
  | 'equals'
  | 'not-equals'
  | 'contains'
  | 'not-contains'
  | 'missing'
  | 'not-missing'
  | 'clear';

export interface ColumnMenuItem {
  readonly action: ColumnMenuAction;
  readonly label: string;
  /** The operator the prompt dialog's filter gets (for the '...' items). */
  readonly operator?: Operator;
}

/** SPEC §2 per-column menu, by the column's search-parameter type; undefined type: no parameter. */
export function columnMenuItems(type: SearchParameterType | undefined): ColumnMenuItem[] {
  if (type === undefined) return [];
  const items: ColumnMenuItem[] = [];
  const canSort = type !== 'composite' && type !== 'special';
  if (canSort) {
    items.push({ action: 'sort-asc', label: 'Sort A to Z' }, { action: 'sort-desc', label: 'Sort Z to A' });
  }
  if (canSort) {
    const ordered = type === 'number' || type === 'quantity' || type === 'date';
    items.push(
      { action: 'equals', label: 'Equals...', operator: Operator.EQUALS },
      {
        action: 'not-equals',
        label: 'Does not equal...',
        operator: ordered ? Operator.NOT_EQUALS : Operator.NOT,
      },
    );
  }
  if (type === 'string') {
    items.push(
      { action: 'contains', label: 'Contains...', operator: Operator.CONTAINS },
      { action: 'not-contains', label: 'Does not contain...' },
    );
  }
  items.push(
    { action: 'missing', label: 'Missing' },
    { action: 'not-missing', label: 'Not missing' },
    { action: 'clear', label: 'Clear filters' },
  );
  return items;
}

/** The filter the single-filter prompt adds for a column-menu item on a parameter of `type`. */
export function promptFilter(
  type: SearchParameterType,
  code: string,
  item: ColumnMenuItem,
  value: string,
): Filter {
  if (item.action === 'not-contains') return notContainsFilter(code, value);
  return normalizeFilter(type, { code, operator: item.operator ?? Operator.EQUALS, value });
}

/** Whether the prompt of a column-menu item offers a quantity's comparator: 'Equals...' only. */
export function promptShowsComparator(item: ColumnMenuItem): boolean {
  return item.action === 'equals';
}
