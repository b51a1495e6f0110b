// The concepts (system, code, display) of a ValueSet, for $expand. Like
// src/fhir/value-set-expansion.ts (which gives the bare code lists of required bindings at build
// time) it expands only what resolves exactly, but it keeps systems and displays, follows the
// `is-a`/`descendent-of` filters of complete code systems, and looks canonical resources up through
// an async source (the caller's stored terminology, then the definitions').
import type { CodeSystem, CodeSystemConcept, ValueSet, ValueSetComposeInclude } from '@medplum/fhirtypes';
import { withoutVersion } from '../../fhir/value-set-expansion';

export interface ExpandedConcept {
  system: string;
  code: string;
  display?: string;
}

export interface TerminologySource {
  findValueSet(url: string): Promise<ValueSet | undefined>;
  findCodeSystem(url: string): Promise<CodeSystem | undefined>;
}

/** Why a value set cannot be expanded exactly (a 400 for the caller, never a guess). */
export class NotExpandable extends Error {}

/** Above this many concepts an expansion is refused rather than held in memory. */
export const MAX_EXPANSION = 50_000;

type ConceptMap = Map<string, ExpandedConcept>;

const keyOf = (system: string, code: string): string => `${system}|${code}`;

function add(out: ConceptMap, concept: ExpandedConcept): void {
  out.set(keyOf(concept.system, concept.code), concept);
  if (out.size > MAX_EXPANSION) {
    throw new NotExpandable(`more than ${MAX_EXPANSION} concepts`);
  }
}

function addTree(system: string, concepts: CodeSystemConcept[] | undefined, out: ConceptMap): void {
  for (const concept of concepts ?? []) {
    if (concept.code) {
      add(out, { system, code: concept.code, display: concept.display });
    }
    addTree(system, concept.concept, out);
  }
}

function findConcept(concepts: CodeSystemConcept[] | undefined, code: string): CodeSystemConcept | undefined {
  for (const concept of concepts ?? []) {
    if (concept.code === code) {
      return concept;
    }
    const nested = findConcept(concept.concept, code);
    if (nested) {
      return nested;
    }
  }
  return undefined;
}

async function completeCodeSystem(source: TerminologySource, system: string): Promise<CodeSystem> {
  const codeSystem = await source.findCodeSystem(system);
  if (!codeSystem) {
    throw new NotExpandable(`code system ${system} is not available`);
  }
  if (codeSystem.content !== undefined && codeSystem.content !== 'complete') {
    throw new NotExpandable(`code system ${system} is not complete here (content: ${codeSystem.content})`);
  }
  return codeSystem;
}

async function ruleConcepts(
  rule: ValueSetComposeInclude,
  source: TerminologySource,
  visiting: Set<string>,
): Promise<ConceptMap> {
  const out: ConceptMap = new Map();
  if (rule.valueSet?.length) {
    if (rule.system || rule.concept || rule.filter) {
      throw new NotExpandable('a rule combining valueSet with system, concept or filter (an intersection)');
    }
    for (const url of rule.valueSet) {
      for (const concept of (await resolve(url, source, visiting)).values()) add(out, concept);
    }
    return out;
  }
  if (!rule.system) {
    throw new NotExpandable('a rule without system or valueSet');
  }
  const system = withoutVersion(rule.system);
  if (rule.concept?.length) {
    if (rule.filter?.length) {
      throw new NotExpandable(`concept and filter in one rule on ${system}`);
    }
    // Listed concepts: their displays, else the code system's when it is at hand.
    const codeSystem = await source.findCodeSystem(system);
    for (const concept of rule.concept) {
      const display = concept.display ?? findConcept(codeSystem?.concept, concept.code)?.display;
      add(out, { system, code: concept.code, display });
    }
    return out;
  }
  const codeSystem = await completeCodeSystem(source, system);
  if (!rule.filter?.length) {
    addTree(system, codeSystem.concept, out);
    return out;
  }
  if (rule.filter.length > 1) {
    throw new NotExpandable(`more than one filter on ${system}`);
  }
  const [filter] = rule.filter;
  if (filter.property !== 'concept' || (filter.op !== 'is-a' && filter.op !== 'descendent-of')) {
    throw new NotExpandable(`filter ${filter.property} ${filter.op} on ${system}`);
  }
  const root = findConcept(codeSystem.concept, filter.value);
  if (!root) {
    throw new NotExpandable(`concept ${filter.value} is not in ${system}`);
  }
  if (filter.op === 'is-a') {
    add(out, { system, code: root.code, display: root.display });
  }
  addTree(system, root.concept, out);
  return out;
}

async function resolve(
  canonical: string,
  source: TerminologySource,
  visiting: Set<string>,
): Promise<ConceptMap> {
  const url = withoutVersion(canonical);
  if (visiting.has(url)) {
    throw new NotExpandable(`value set ${url} includes itself`);
  }
  const valueSet = await source.findValueSet(canonical);
  if (!valueSet) {
    throw new NotExpandable(`value set ${url} is not available`);
  }
  // A value set that carries its own expansion (and no compose) is taken as it is.
  if (!valueSet.compose?.include?.length) {
    const contains = valueSet.expansion?.contains;
    if (!contains?.length) {
      throw new NotExpandable(`value set ${url} has neither compose.include nor an expansion`);
    }
    const out: ConceptMap = new Map();
    for (const item of contains) {
      if (item.system && item.code) add(out, { system: item.system, code: item.code, display: item.display });
    }
    return out;
  }
  visiting.add(url);
  const concepts: ConceptMap = new Map();
  for (const rule of valueSet.compose.include) {
    for (const concept of (await ruleConcepts(rule, source, visiting)).values()) add(concepts, concept);
  }
  for (const rule of valueSet.compose.exclude ?? []) {
    for (const key of (await ruleConcepts(rule, source, visiting)).keys()) concepts.delete(key);
  }
  visiting.delete(url);
  return concepts;
}

/** Every concept of the value set, in definition order; NotExpandable when that cannot be exact. */
export async function expandConcepts(
  canonical: string,
  source: TerminologySource,
): Promise<ExpandedConcept[]> {
  return [...(await resolve(canonical, source, new Set())).values()];
}
