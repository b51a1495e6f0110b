// FHIR R4 + Medplum type definitions, search parameters and the Patient compartment, read from
// src/fhir/generated/fhir-index.json (built by `npm run build:fhir`). The file is parsed once on
// first use; each type's schema is expanded from its compact form once, on first request.
import type {
  CompactElement,
  CompactFhirIndex,
  CompactSearchParam,
  CompactType,
  TypeKind,
} from './index-format';

export const FHIR_INDEX_PATH = 'src/fhir/generated/fhir-index.json';

export interface ElementType {
  /** a FHIR type name ('string', 'Quantity', 'Reference') or a nested type's path ('Patient.contact') */
  code: string;
  /** for Reference: the allowed target resource types ('Resource' means any) */
  targets?: string[];
}

export interface ElementSchema {
  /** as declared, e.g. 'birthDate' or 'value[x]' */
  name: string;
  /** e.g. 'Patient.birthDate', 'Observation.component.value[x]' */
  path: string;
  min: number;
  /** Infinity when unbounded ('*') */
  max: number;
  /** whether the JSON form is an array (FHIR JSON: the base definition's max is not 1) */
  isArray: boolean;
  isChoice: boolean;
  types: ElementType[];
  /** for a `code` element bound with required strength to a value set resolved at build time */
  binding?: RequiredBinding;
  /** part of the summary view (FHIR `isSummary`, used by `_summary=true`); absent when not */
  isSummary?: true;
}

/** A required terminology binding: the value must be one of `codes`. */
export interface RequiredBinding {
  /** as declared, e.g. 'http://hl7.org/fhir/ValueSet/administrative-gender|4.0.1' */
  valueSet: string;
  codes: ReadonlySet<string>;
}

/** A concrete JSON property name ('valueQuantity') resolved to its element and type. */
export interface PropertySchema {
  element: ElementSchema;
  type: ElementType;
}

export interface TypeSchema {
  name: string;
  kind: TypeKind;
  abstract: boolean;
  base?: string;
  /** keyed by declared name ('value[x]') */
  elements: Map<string, ElementSchema>;
  /** keyed by JSON property name, choice types expanded ('valueQuantity', 'valueString', …) */
  properties: Map<string, PropertySchema>;
}

export type SearchParameterType =
  'number' | 'date' | 'string' | 'token' | 'reference' | 'composite' | 'quantity' | 'uri' | 'special';

export interface SearchParameterInfo {
  code: string;
  type: SearchParameterType;
  /** FHIRPath narrowed to the resource type it was asked for */
  expression: string;
  target?: string[];
}

let index: CompactFhirIndex | undefined;
const schemaCache = new Map<string, TypeSchema>();
const searchCache = new Map<string, SearchParameterInfo[]>();
const bindingCache = new Map<number, RequiredBinding>();
let resourceTypes: string[] | undefined;

interface NodeFs {
  readFileSync(path: string, encoding: 'utf8'): string;
}

/** Reads and parses the generated index (cwd-relative), replacing any index loaded before. */
export function loadFhirIndexFile(path: string = FHIR_INDEX_PATH): CompactFhirIndex {
  // getBuiltinModule keeps node:fs out of the module graph, so browser bundles can import src/fhir.
  const fs = globalThis.process?.getBuiltinModule?.('node:fs') as NodeFs | undefined;
  if (!fs) {
    throw new Error('FHIR definitions cannot be read here: call setFhirIndex() with the index');
  }
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`FHIR index ${path} is missing: run "npm run build:fhir"`, { cause: err });
  }
  const parsed = JSON.parse(text) as CompactFhirIndex;
  setFhirIndex(parsed);
  return parsed;
}

/** Installs an already loaded index (e.g. in a browser that fetched the file). */
export function setFhirIndex(value: CompactFhirIndex): void {
  index = value;
  schemaCache.clear();
  searchCache.clear();
  bindingCache.clear();
  resourceTypes = undefined;
}

function getIndex(): CompactFhirIndex {
  return index ?? loadFhirIndexFile();
}

function compactType(name: string): CompactType | undefined {
  const types = getIndex().types;
  return Object.hasOwn(types, name) ? types[name] : undefined;
}

/** Concrete (non-abstract) resource types, sorted. */
export function getResourceTypes(): string[] {
  if (!resourceTypes) {
    const types = getIndex().types;
    resourceTypes = Object.keys(types)
      .filter((name) => types[name].k === 'resource' && !types[name].a)
      .sort();
  }
  return resourceTypes;
}

/** Whether name is a concrete (non-abstract) resource type. */
export function isResourceType(name: string): boolean {
  const type = compactType(name);
  return type?.k === 'resource' && !type.a;
}

function parseTypes(encoded: string): ElementType[] {
  return encoded.split('|').map((part) => {
    const open = part.indexOf('(');
    return open < 0
      ? { code: part }
      : { code: part.slice(0, open), targets: part.slice(open + 1, -1).split(',') };
  });
}

function choiceSuffix(code: string): string {
  return code.charAt(0).toUpperCase() + code.slice(1);
}

/** One shared binding (and code Set) per index entry, built on first use. */
function getBinding(position: number): RequiredBinding | undefined {
  let binding = bindingCache.get(position);
  if (!binding) {
    const { bindings, codeLists } = getIndex();
    const compact = bindings?.[position];
    const codes = compact && codeLists?.[compact[1]];
    if (!compact || !codes) {
      return undefined;
    }
    binding = { valueSet: compact[0], codes: new Set(codes) };
    bindingCache.set(position, binding);
  }
  return binding;
}

function expandElement(
  typeName: string,
  name: string,
  compact: CompactElement,
  summary: readonly string[] | undefined,
): ElementSchema {
  const [min, max, types, isArray] = compact;
  const element: ElementSchema = {
    name,
    path: `${typeName}.${name}`,
    min,
    max: max < 0 ? Infinity : max,
    isArray: isArray === 1,
    isChoice: name.endsWith('[x]'),
    types: parseTypes(types),
  };
  if (summary?.includes(name)) {
    element.isSummary = true;
  }
  if (compact.length === 5) {
    const binding = getBinding(compact[4]);
    if (binding) element.binding = binding;
  }
  return element;
}

/** The schema of a resource, datatype or nested (backbone) type, e.g. 'Patient', 'HumanName', 'Patient.contact'. */
export function getTypeSchema(name: string): TypeSchema | undefined {
  const cached = schemaCache.get(name);
  if (cached) {
    return cached;
  }
  const compact = compactType(name);
  if (!compact) {
    return undefined;
  }
  const elements = new Map<string, ElementSchema>();
  const properties = new Map<string, PropertySchema>();
  for (const [elementName, compactElement] of Object.entries(compact.e)) {
    const element = expandElement(name, elementName, compactElement, compact.s);
    elements.set(elementName, element);
    if (element.isChoice) {
      const prefix = elementName.slice(0, -3);
      for (const type of element.types) {
        properties.set(prefix + choiceSuffix(type.code), { element, type });
      }
    } else {
      properties.set(elementName, { element, type: element.types[0] });
    }
  }
  const schema: TypeSchema = {
    name,
    kind: compact.k,
    abstract: compact.a === 1,
    base: compact.b,
    elements,
    properties,
  };
  schemaCache.set(name, schema);
  return schema;
}

function expandSearchParam([code, type, expression, targets]: CompactSearchParam): SearchParameterInfo {
  const param: SearchParameterInfo = { code, type: type as SearchParameterType, expression };
  if (targets) {
    param.target = targets.split('|');
  }
  return param;
}

/** The search parameters of a resource type (R4 and Medplum's, common ones like _id included). */
export function getSearchParameters(resourceType: string): SearchParameterInfo[] {
  let params = searchCache.get(resourceType);
  if (!params) {
    const search = getIndex().search;
    params = Object.hasOwn(search, resourceType) ? search[resourceType].map(expandSearchParam) : [];
    searchCache.set(resourceType, params);
  }
  return params;
}

export function getSearchParameter(resourceType: string, code: string): SearchParameterInfo | undefined {
  return getSearchParameters(resourceType).find((param) => param.code === code);
}

/** The search parameter codes linking a resource type to the Patient compartment, if it is in it. */
export function getPatientCompartmentParams(resourceType: string): string[] | undefined {
  const compartment = getIndex().patientCompartment;
  return Object.hasOwn(compartment, resourceType) ? compartment[resourceType] : undefined;
}
