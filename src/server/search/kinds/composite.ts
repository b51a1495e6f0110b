// Composite parameters (FHIR R4 search §3.1.1.4.10): `first$second`, a token (or reference) first
// component and a typed second one (quantity, number, date, string or token), both on one row of
// search_composite so they come from the same element. Decided in SQL only: subscriptions refuse
// composites (criteria.ts), and _sort refuses them (a pair has no one order).
import { Operator, splitValuePrefix } from '../../../fhir/search';
import { getCompositeComponents } from '../composite-components';
import { dateCompare, numberCompare } from './ordered';
import {
  invalid,
  missingMatches,
  missingProbe,
  or,
  probe,
  rowsOf,
  splitBar,
  unescapeValue,
  values,
} from './probe';
import { stringCondition } from './string';
import type { SearchKind } from './types';

export const composite: SearchKind = {
  modifiers: [Operator.MISSING],
  prefixes: false,
  valueProblem: (value) => (value.includes('$') ? undefined : 'component values joined by $'),
  sql(ctx, resourceType, alias, filter) {
    const code = filter.code;
    if (filter.operator === Operator.MISSING) {
      return missingProbe(ctx, 'composite', resourceType, alias, filter);
    }
    const components = getCompositeComponents(resourceType, code);
    if (!components || components.length < 2) {
      invalid(`Composite search parameter '${code}' has no usable definition`, code);
    }
    const second = components[1];
    const conditions = values(filter).map((value) => {
      const dollar = value.search(/(?<!\\)\$/);
      if (dollar < 0) {
        invalid(`Composite '${code}' needs two parts joined by '$', got '${value}'`, code);
      }
      const first = value.slice(0, dollar);
      const rest = value.slice(dollar + 1);
      const parts = splitBar(first);
      const p = ctx.params;
      const firstCondition =
        parts.length === 2
          ? [
              parts[0] ? `t.system1 = ${p.add(parts[0])}` : 't.system1 IS NULL',
              `t.value1 = ${p.add(parts[1])}`,
            ].join(' AND ')
          : `t.value1 = ${p.add(unescapeValue(first))}`;
      let secondCondition: string;
      if (second.type === 'quantity' || second.type === 'number') {
        const [prefix, number] = splitValuePrefix(rest);
        const bars = splitBar(number);
        const conds = [numberCompare(p, 't.number2', prefix ?? Operator.EQUALS, bars[0], code)];
        if (bars[1]) conds.push(`t.system2 = ${p.add(bars[1])}`);
        if (bars[2]) conds.push(`t.value2 = ${p.add(bars[2])}`);
        secondCondition = conds.join(' AND ');
      } else if (second.type === 'date') {
        const [prefix, date] = splitValuePrefix(rest);
        secondCondition = dateCompare(p, 't.low2', 't.high2', prefix ?? Operator.EQUALS, date, code);
      } else if (second.type === 'string') {
        secondCondition = stringCondition(p, Operator.EQUALS, rest).replace('t.value', 't.value2');
      } else {
        const bars = splitBar(rest);
        secondCondition =
          bars.length === 2
            ? [
                bars[0] ? `t.system2 = ${p.add(bars[0])}` : 't.system2 IS NULL',
                bars[1] ? `t.value2 = ${p.add(bars[1])}` : 'true',
              ].join(' AND ')
            : `t.value2 = ${p.add(unescapeValue(rest))}`;
      }
      return `(${firstCondition} AND ${secondCondition})`;
    });
    return probe(ctx, 'composite', resourceType, alias, code, or(conditions));
  },
  matches({ rows }, filter) {
    if (filter.operator === Operator.MISSING) {
      return missingMatches(filter, rowsOf(rows.composite, filter.code).length > 0);
    }
    return invalid(
      `Search parameter '${filter.code}' of type composite is not supported in criteria`,
      filter.code,
    );
  },
};
