// Token :above and :below (FHIR R4 search §3.1.1.5.6, subsumption): the codes a code subsumes, or
// the codes subsuming it, through its CodeSystem's hierarchy — nested `concept`s and the `parent`
// / `subsumedBy` properties — from the terminology the server already has for ValueSet/$expand
// (the definitions' code systems, overridden by stored CodeSystems).
import { withoutVersion } from '../../fhir/value-set-expansion';
import type { Terminology } from '../../fhir/value-set-expansion';
import type { Queryable } from '../db';
import { invalid, splitBar } from './kinds/probe';
import { loadTerminology } from './value-set-codes';

export type SubsumptionDirection = 'above' | 'below';

interface ConceptNode {
  code: string;
  concept?: ConceptNode[];
  property?: { code?: string; valueCode?: string }[];
}

/** parent → children and child → parents of one code system. */
interface Hierarchy {
  children: Map<string, Set<string>>;
  parents: Map<string, Set<string>>;
}

function link(hierarchy: Hierarchy, parent: string, child: string): void {
  if (!hierarchy.children.has(parent)) hierarchy.children.set(parent, new Set());
  if (!hierarchy.parents.has(child)) hierarchy.parents.set(child, new Set());
  hierarchy.children.get(parent)?.add(child);
  hierarchy.parents.get(child)?.add(parent);
}

function collect(
  concepts: ConceptNode[] | undefined,
  parent: string | undefined,
  hierarchy: Hierarchy,
): void {
  for (const concept of concepts ?? []) {
    if (!hierarchy.parents.has(concept.code)) hierarchy.parents.set(concept.code, new Set());
    if (parent) link(hierarchy, parent, concept.code);
    for (const property of concept.property ?? []) {
      if ((property.code === 'parent' || property.code === 'subsumedBy') && property.valueCode) {
        link(hierarchy, property.valueCode, concept.code);
      }
    }
    collect(concept.concept, concept.code, hierarchy);
  }
}

/** The code and every code reachable from it, following `edges` (cycles end the walk). */
function closure(start: string, edges: Map<string, Set<string>>): string[] {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const next of edges.get(queue.shift() as string) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return [...seen];
}

/**
 * The codes of `system` that `code` subsumes (below) or that subsume it (above), itself included;
 * undefined when the terminology has no such code system or the code is not in it.
 */
export function subsumptionCodes(
  terminology: Terminology,
  system: string,
  code: string,
  direction: SubsumptionDirection,
): string[] | undefined {
  const codeSystem = terminology.codeSystems.get(withoutVersion(system));
  if (!codeSystem) {
    return undefined;
  }
  const hierarchy: Hierarchy = { children: new Map(), parents: new Map() };
  collect(codeSystem.concept as ConceptNode[] | undefined, undefined, hierarchy);
  if (!hierarchy.parents.has(code)) {
    return undefined;
  }
  return closure(code, direction === 'below' ? hierarchy.children : hierarchy.parents);
}

/** The key under which a token :above/:below value's codes travel to the SQL builder. */
export function subsumptionKey(direction: SubsumptionDirection, value: string): string {
  return `${direction}:${value}`;
}

/**
 * Resolves `system|code` values of a token :above/:below filter into `out` (by subsumptionKey);
 * a value without a system, or whose code system or code is unknown, is a 400 naming `parameter`.
 */
export async function resolveSubsumption(
  q: Queryable,
  direction: SubsumptionDirection,
  values: readonly string[],
  parameter: string,
  out: Map<string, string[]>,
  cache: { terminology?: Terminology },
): Promise<void> {
  for (const value of values) {
    const parts = splitBar(value);
    if (parts.length !== 2 || !parts[0] || !parts[1]) {
      invalid(`:${direction} on '${parameter}' needs system|code, got '${value}'`, parameter);
    }
    cache.terminology ??= await loadTerminology(q);
    const codes = subsumptionCodes(cache.terminology, parts[0], parts[1], direction);
    if (!codes) {
      invalid(
        `:${direction} on '${parameter}': code '${parts[1]}' of code system '${parts[0]}' is not available`,
        parameter,
      );
    }
    out.set(subsumptionKey(direction, value), codes);
  }
}
