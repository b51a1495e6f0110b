// Expands a ValueSet to its finite list of codes from ValueSet and CodeSystem resources in memory
// (used at build time by scripts/build-fhir-index.ts for required bindings). Only
// what can be resolved exactly is expanded: include/exclude by system (a complete CodeSystem's
// concepts, recursively), by concept list, or by other value sets. Filters, unknown or incomplete
// code systems, cycles and sets larger than the caller's limit are reported as skipped, never guessed.

export interface ConceptDef {
  code: string;
  concept?: ConceptDef[];
}

export interface CodeSystemDef {
  resourceType: 'CodeSystem';
  url: string;
  /** 'complete' (or absent) means every code is listed in `concept` */
  content?: string;
  concept?: ConceptDef[];
}

export interface ValueSetComposeRule {
  system?: string;
  concept?: { code: string }[];
  filter?: unknown[];
  valueSet?: string[];
}

export interface ValueSetDef {
  resourceType: 'ValueSet';
  url: string;
  compose?: { include?: ValueSetComposeRule[]; exclude?: ValueSetComposeRule[] };
}

export interface Terminology {
  /** keyed by canonical URL without version */
  valueSets: Map<string, ValueSetDef>;
  /** keyed by canonical URL without version */
  codeSystems: Map<string, CodeSystemDef>;
}

export type Expansion = { codes: string[] } | { skipped: string };

/** 'http://hl7.org/fhir/ValueSet/x|4.0.1' → 'http://hl7.org/fhir/ValueSet/x' */
export function withoutVersion(canonical: string): string {
  const bar = canonical.indexOf('|');
  return bar < 0 ? canonical : canonical.slice(0, bar);
}

/** Thrown inside the recursion to abandon a value set that cannot be resolved exactly. */
class Unresolvable extends Error {}

function addConcepts(concepts: ConceptDef[] | undefined, out: Set<string>): void {
  for (const concept of concepts ?? []) {
    out.add(concept.code);
    addConcepts(concept.concept, out);
  }
}

function ruleCodes(rule: ValueSetComposeRule, terminology: Terminology, visiting: Set<string>): Set<string> {
  if (rule.filter?.length) {
    throw new Unresolvable(`filter on ${rule.system ?? 'a value set'}`);
  }
  if (rule.valueSet?.length) {
    if (rule.system || rule.concept) {
      throw new Unresolvable('system and valueSet in one rule (an intersection)');
    }
    const out = new Set<string>();
    for (const url of rule.valueSet) {
      for (const code of resolve(url, terminology, visiting)) out.add(code);
    }
    return out;
  }
  if (rule.concept?.length) {
    return new Set(rule.concept.map((concept) => concept.code));
  }
  if (!rule.system) {
    throw new Unresolvable('rule without system, concept or valueSet');
  }
  const system = withoutVersion(rule.system);
  const codeSystem = terminology.codeSystems.get(system);
  if (!codeSystem) {
    throw new Unresolvable(`code system ${system} not available`);
  }
  if (codeSystem.content !== undefined && codeSystem.content !== 'complete') {
    throw new Unresolvable(`code system ${system} content is ${codeSystem.content}`);
  }
  const out = new Set<string>();
  addConcepts(codeSystem.concept, out);
  return out;
}

function resolve(canonical: string, terminology: Terminology, visiting: Set<string>): Set<string> {
  const url = withoutVersion(canonical);
  const valueSet = terminology.valueSets.get(url);
  if (!valueSet) {
    throw new Unresolvable(`value set ${url} not available`);
  }
  if (visiting.has(url)) {
    throw new Unresolvable(`value set ${url} includes itself`);
  }
  const include = valueSet.compose?.include ?? [];
  if (include.length === 0) {
    throw new Unresolvable(`value set ${url} has no compose.include`);
  }
  visiting.add(url);
  const codes = new Set<string>();
  for (const rule of include) {
    for (const code of ruleCodes(rule, terminology, visiting)) codes.add(code);
  }
  for (const rule of valueSet.compose?.exclude ?? []) {
    for (const code of ruleCodes(rule, terminology, visiting)) codes.delete(code);
  }
  visiting.delete(url);
  return codes;
}

/** The codes of a value set (canonical, version suffix ignored), or why it was skipped. */
export function expandValueSet(canonical: string, terminology: Terminology, maxCodes = Infinity): Expansion {
  let codes: Set<string>;
  try {
    codes = resolve(canonical, terminology, new Set());
  } catch (err) {
    if (err instanceof Unresolvable) return { skipped: err.message };
    throw err;
  }
  if (codes.size === 0) {
    return { skipped: 'no codes' };
  }
  if (codes.size > maxCodes) {
    return { skipped: `${codes.size} codes, more than ${maxCodes}` };
  }
  return { codes: [...codes] };
}

/** Indexes ValueSet and CodeSystem resources by URL; later ones replace earlier ones with the same URL. */
export function createTerminology(resources: Iterable<{ resourceType: string; url?: string }>): Terminology {
  const terminology: Terminology = { valueSets: new Map(), codeSystems: new Map() };
  for (const resource of resources) {
    if (!resource.url) continue;
    if (resource.resourceType === 'ValueSet') {
      terminology.valueSets.set(withoutVersion(resource.url), resource as ValueSetDef);
    } else if (resource.resourceType === 'CodeSystem') {
      terminology.codeSystems.set(withoutVersion(resource.url), resource as CodeSystemDef);
    }
  }
  return terminology;
}
