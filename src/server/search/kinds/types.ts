// What a search parameter type (a "kind") owns, so the SQL side and the in-memory side of one type
// live in one module and cannot drift: its modifiers, its SQL probe of the index table, its
// matcher over one resource's index rows (subscriptions), and the column _sort reads.
import type { Resource } from '@medplum/fhirtypes';
import type { SearchParameterInfo } from '../../../fhir';
import type { Operator } from '../../../fhir/search';
import type { RepositoryContext } from '../../access/context';
import type { IndexRows } from '../index-rows';
import type { IndexKind } from '../schema';
import type { SqlParams } from '../sql-params';
import type { JoinedTypedRow } from '../typed-table-plan';
import type { SqlFilter } from '../types';

/** What the SQL builder carries while it turns filters into conditions. */
export interface FilterContext {
  params: SqlParams;
  context: RepositoryContext;
  /** Expanded :in / :not-in value sets by URL, and :above / :below code sets by subsumptionKey (resolved before the SQL is built). */
  valueSets: ReadonlyMap<string, readonly string[]>;
  /** Counter for unique aliases of nested queries. */
  depth: number;
  /** The per-type row the query joins to its resource row, when it does (typed-table-plan.ts). */
  typedRow?: JoinedTypedRow;
  /** Policy criteria as the generic index probes only (the differential's reference SQL). */
  genericCriteria?: boolean;
}

/** One resource version with its index rows, computed once and shared by every subscription. */
export interface MatchTarget {
  resource: Resource;
  rows: IndexRows;
}

/** The index table and columns _sort reads: the smallest value ascending, the largest descending. */
export interface SortKey {
  table: IndexKind;
  ascending: string;
  descending: string;
}

export interface SearchKind {
  /** The modifiers the edge accepts on this type (FHIR R4 search §3.1.1.5; request-validation.ts). */
  readonly modifiers: readonly Operator[];
  /** Whether values may carry comparison prefixes (eq, gt, …: number, date, quantity). */
  readonly prefixes: boolean;
  /**
   * Why one non-empty value of a plain (or `:not`, `:exact`) filter is malformed, as "expected …"
   * text for the 400, or undefined when it is well-formed (FHIR R4 search §3.1.1.4). `prefixed`:
   * the value may start with its own prefix.
   */
  valueProblem?(value: string, prefixed: boolean): string | undefined;
  /** A condition on resource `alias` of `resourceType` for one filter on a parameter of this type. */
  sql(
    ctx: FilterContext,
    resourceType: string,
    alias: string,
    filter: SqlFilter,
    param: SearchParameterInfo,
  ): string;
  /** The same filter decided on one resource version, as the SQL would decide it. */
  matches(target: MatchTarget, filter: SqlFilter, param: SearchParameterInfo): boolean;
  /** What _sort reads; absent when the type has no one order (composite, special). */
  readonly sortKey?: SortKey;
}
