// Well-formedness of one search value by parameter type (FHIR R4 search §3.1.1.4): what a value
// must look like before it may reach SQL. Each type says it in its module (kinds/); a type without
// a rule (string, uri, special) takes any non-empty value.
import type { SearchParameterType } from '../../fhir';
import { SEARCH_KINDS } from './kinds';
import type { SearchKind } from './kinds';

/** The reason `value` is not a well-formed value of an unmodified (or `:not`) parameter of this type. */
export function valueProblem(
  type: SearchParameterType,
  value: string,
  prefixed: boolean,
): string | undefined {
  if (value === '') {
    return 'a value';
  }
  const kind: SearchKind | undefined = SEARCH_KINDS[type];
  return kind?.valueProblem?.(value, prefixed);
}
