// Special parameters (FHIR R4 search §3.1.1.4.11) and the parameters every resource has outside
// its definitions, which answer from the resource row or their own index: _id and _lastUpdated
// (columns), _compartment (the row's compartments), _project (the row's project, Medplum's
// meta.project token), _text and _content (full-text search).
// `near` on Location is the one special parameter this server implements (near-sql.ts).
import type { Resource } from '@medplum/fhirtypes';
import { Operator } from '../../../fhir/search';
import type { Filter } from '../../../fhir/search';
import { nearCondition } from '../near-sql';
import { textSearchCondition } from '../text-index';
import type { SqlFilter } from '../types';
import { dateCompare, dateMatches, orderedMatches, orderedParts } from './ordered';
import { invalid, missingMatches, or, probe, unescapeValue, values } from './probe';
import type { FilterContext, MatchTarget, SearchKind } from './types';

export const special: SearchKind = {
  modifiers: [Operator.MISSING],
  prefixes: false,
  sql(ctx, resourceType, alias, filter) {
    if (filter.code === 'near' && resourceType === 'Location') {
      return nearCondition(ctx.params, alias, filter);
    }
    return invalid(`Search parameter '${filter.code}' of type special is not supported`, filter.code);
  },
  // near's distance is decided in SQL only: criteria.ts refuses special parameters.
  matches(_target, filter) {
    if (filter.operator === Operator.MISSING) {
      return missingMatches(filter, false);
    }
    return invalid(
      `Search parameter '${filter.code}' of type special is not supported in criteria`,
      filter.code,
    );
  },
};

/** A parameter of every resource type, answered from the resource row (or search_text). */
interface ResourceParameter {
  sql(ctx: FilterContext, resourceType: string, alias: string, filter: SqlFilter): string;
  /** Absent: decided in SQL only (criteria.ts refuses it). */
  matches?(target: MatchTarget, filter: SqlFilter): boolean;
}

/** _id and _lastUpdated are always present: :missing=true matches nothing. */
const alwaysPresent = (filter: Filter): string => (filter.value === 'true' ? 'false' : 'true');

const id: ResourceParameter = {
  sql(ctx, _resourceType, alias, filter) {
    if (filter.operator === Operator.MISSING) {
      return alwaysPresent(filter);
    }
    const ids = ctx.params.add(values(filter).map(unescapeValue));
    if (filter.operator === Operator.NOT) {
      return `NOT (${alias}.id = ANY(${ids}::text[]))`;
    }
    if (filter.operator !== Operator.EQUALS) {
      invalid(`Modifier ':${filter.operator}' is not supported on '_id'`, `_id:${filter.operator}`);
    }
    return `${alias}.id = ANY(${ids}::text[])`;
  },
  matches({ resource }, filter) {
    if (filter.operator === Operator.MISSING) return missingMatches(filter, true);
    const ids = values(filter).map(unescapeValue);
    const own = resource.id ?? '';
    if (filter.operator === Operator.NOT) return !ids.includes(own);
    if (filter.operator !== Operator.EQUALS) {
      invalid(`Modifier ':${filter.operator}' is not supported on '_id'`, `_id:${filter.operator}`);
    }
    return ids.includes(own);
  },
};

const lastUpdated: ResourceParameter = {
  sql(ctx, _resourceType, alias, filter) {
    if (filter.operator === Operator.MISSING) {
      return alwaysPresent(filter);
    }
    const column = `${alias}.last_updated`;
    const conditions = orderedParts(filter).map(([operator, value]) => {
      // An instant is a point: [t, t] with an inclusive end behaves as FHIR's comparisons expect.
      const point = (o: Operator) =>
        dateCompare(ctx.params, column, `(${column} + interval '1 millisecond')`, o, value, '_lastUpdated');
      return operator === Operator.NOT_EQUALS ? `NOT ${point(Operator.EQUALS)}` : point(operator);
    });
    return or(conditions);
  },
  matches({ resource }, filter) {
    if (filter.operator === Operator.MISSING) return missingMatches(filter, true);
    const at = Date.parse(resource.meta?.lastUpdated ?? '');
    // An instant is the point [t, t + 1 ms), as the SQL treats the column.
    return orderedMatches(orderedParts(filter), (operator, value) =>
      dateMatches(
        [at, at + 1],
        operator === Operator.NOT_EQUALS ? Operator.EQUALS : operator,
        value,
        '_lastUpdated',
      ),
    );
  },
};

function compartmentValues(filter: Filter): string[] {
  if (filter.operator !== Operator.EQUALS) {
    invalid(
      `Modifier ':${filter.operator}' is not supported on '_compartment'`,
      `_compartment:${filter.operator}`,
    );
  }
  return values(filter).map((value) => {
    const plain = unescapeValue(value);
    return plain.includes('/') ? plain : `Patient/${plain}`;
  });
}

/** The compartments the repository stamped on the version (meta.compartment), as 'Type/id' strings. */
export function compartmentsOf(resource: Resource): string[] {
  const meta = resource.meta as { compartment?: { reference?: string }[] } | undefined;
  return (meta?.compartment ?? []).map((ref) => ref.reference ?? '').filter(Boolean);
}

const compartment: ResourceParameter = {
  sql(ctx, _resourceType, alias, filter) {
    return `${alias}.compartments && ${ctx.params.add(compartmentValues(filter))}::text[]`;
  },
  matches({ resource }, filter) {
    const own = compartmentsOf(resource);
    return compartmentValues(filter).some((value) => own.includes(value));
  },
};

/**
 * _project: the project id the version is stored in (Medplum's token on meta.project; the value is
 * the bare id, as Medplum's admin criteria `ProjectMembership?_project=<id>` write it).
 */
const project: ResourceParameter = {
  sql(ctx, _resourceType, alias, filter) {
    if (filter.operator === Operator.MISSING) {
      return filter.value === 'true' ? `${alias}.project IS NULL` : `${alias}.project IS NOT NULL`;
    }
    const ids = ctx.params.add(projectValues(filter));
    // :not holds for rows outside every given project, those with no project included (FHIR's :not).
    return filter.operator === Operator.NOT
      ? `(${alias}.project IS NULL OR NOT (${alias}.project = ANY(${ids}::text[])))`
      : `${alias}.project = ANY(${ids}::text[])`;
  },
  matches({ resource }, filter) {
    const own = resource.meta?.project;
    if (filter.operator === Operator.MISSING) {
      return missingMatches(filter, own !== undefined);
    }
    const ids = projectValues(filter);
    if (filter.operator === Operator.NOT) {
      return own === undefined || !ids.includes(own);
    }
    return own !== undefined && ids.includes(own);
  },
};

function projectValues(filter: Filter): string[] {
  if (filter.operator !== Operator.EQUALS && filter.operator !== Operator.NOT) {
    invalid(`Modifier ':${filter.operator}' is not supported on '_project'`, `_project:${filter.operator}`);
  }
  return values(filter).map(unescapeValue);
}

/** _text (the narrative) and _content (every string): full-text search over search_text. */
const fullText: ResourceParameter = {
  sql(ctx, resourceType, alias, filter) {
    if (filter.operator !== Operator.EQUALS) {
      invalid(
        `Modifier ':${filter.operator}' is not supported on '${filter.code}'`,
        `${filter.code}:${filter.operator}`,
      );
    }
    const conditions = values(filter).map((v) => textSearchCondition(ctx.params, unescapeValue(v)));
    return probe(ctx, 'text', resourceType, alias, filter.code, or(conditions));
  },
};

export const RESOURCE_PARAMETERS: ReadonlyMap<string, ResourceParameter> = new Map([
  ['_id', id],
  ['_lastUpdated', lastUpdated],
  ['_compartment', compartment],
  ['_project', project],
  ['_text', fullText],
  ['_content', fullText],
]);
