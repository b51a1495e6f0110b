// 'Does not contain': FHIR R4 search has no ':not-contains' modifier, so the condition is
// the `_filter` expression `not (<param> co "<value>")`. In a SearchRequest it is an ordinary filter
// on `_filter`, so the URL round trip is parseSearchRequest/formatSearchQuery's as for any filter;
// these two functions write it and recognise it (for menus that show it under its parameter).
import { parseFilterExpression } from './filter-expression';
import { Operator, type Filter } from './types';

/** A filter-language string: quoted, with `\` and `"` escaped. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export function notContainsFilter(code: string, value: string): Filter {
  return { code: '_filter', operator: Operator.EQUALS, value: `not (${code} co ${quoted(value)})` };
}

/** The parameter and value of a `not (<param> co "<value>")` filter; undefined for any other filter. */
export function readNotContains(filter: Filter): { code: string; value: string } | undefined {
  if (filter.code !== '_filter' || filter.operator !== Operator.EQUALS) return undefined;
  try {
    const expression = parseFilterExpression(filter.value);
    if (expression.kind !== 'not' || expression.operand.kind !== 'compare') return undefined;
    const { path, operator, value } = expression.operand;
    return operator === 'co' && !path.includes('.') ? { code: path, value } : undefined;
  } catch {
    return undefined;
  }
}
