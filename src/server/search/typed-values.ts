// Evaluates a search parameter's FHIRPath expression (fhirpath.js, R4 model) to typed values: the
// FHIR type of each node decides how it is indexed (a Period is a date range, a CodeableConcept
// several tokens). Compiled expressions are cached; one that fhirpath cannot compile indexes nothing.
import fhirpath from 'fhirpath';
import r4Model from 'fhirpath/fhir-context/r4';

export interface TypedValue {
  /** FHIR type name ('Coding', 'dateTime', 'HumanName'…), guessed from the value when fhirpath has none. */
  type: string;
  value: unknown;
  /** The element path fhirpath reports ('Observation.component'), for evaluating a composite's components. */
  path?: string;
}

type Evaluator = (resource: unknown) => TypedValue[];

const compiled = new Map<string, Evaluator>();

/**
 * `x.where(resolve() is Patient)` needs the target loaded; a literal reference names its type,
 * so test its text instead (as src/fhir/compartments.ts does). Absolute URLs end in Type/id too.
 */
function withoutResolve(expression: string): string {
  return expression.replace(
    /\.where\(\s*resolve\(\)\s+is\s+([A-Za-z]+)\s*\)/g,
    (_match, type: string) => `.where(reference.startsWith('${type}/') or reference.contains('/${type}/'))`,
  );
}

interface FhirpathNode {
  data: unknown;
  path?: string;
  getTypeInfo?: () => { name?: string };
}

function isNode(value: unknown): value is FhirpathNode {
  return typeof value === 'object' && value !== null && 'data' in value && 'path' in value;
}

function guessType(value: unknown): string {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'decimal';
  if (typeof value === 'string') return 'string';
  if (typeof value !== 'object' || value === null) return 'unknown';
  const v = value as Record<string, unknown>;
  if ('reference' in v || ('identifier' in v && 'display' in v)) return 'Reference';
  if (Array.isArray(v.coding) || ('text' in v && Object.keys(v).length === 1)) return 'CodeableConcept';
  if ('start' in v || 'end' in v) return 'Period';
  if ('value' in v && typeof v.value === 'number') return 'Quantity';
  if ('code' in v && 'system' in v) return 'Coding';
  if ('value' in v && 'system' in v) return 'Identifier';
  if ('family' in v || 'given' in v) return 'HumanName';
  return 'unknown';
}

function toTyped(item: unknown): TypedValue {
  if (isNode(item)) {
    const name = item.getTypeInfo?.().name;
    const type =
      name && name !== 'BackboneElement' && name !== 'Element'
        ? name.replace(/^(FHIR|System)\./, '')
        : undefined;
    return { type: type ?? guessType(item.data), value: item.data, path: item.path };
  }
  return { type: guessType(item), value: item };
}

export function getTypedEvaluator(expression: string, base?: string): Evaluator {
  const key = base ? `${base}::${expression}` : expression;
  let evaluator = compiled.get(key);
  if (!evaluator) {
    try {
      const path = base ? { base, expression: withoutResolve(expression) } : withoutResolve(expression);
      const fn = fhirpath.compile(path, r4Model, { resolveInternalTypes: false });
      evaluator = (resource) => {
        try {
          return (fn(resource as object) as unknown[]).map(toTyped);
        } catch {
          return []; // a runtime error on odd data indexes nothing rather than refusing the write
        }
      };
    } catch {
      evaluator = () => [];
    }
    compiled.set(key, evaluator);
  }
  return evaluator;
}

/** Evaluates `expression` on a resource, or on a node of it at `base` (a composite's component). */
export function evaluateTyped(expression: string, input: unknown, base?: string): TypedValue[] {
  return getTypedEvaluator(expression, base)(input);
}
