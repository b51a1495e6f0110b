// The pure half of the new-resource form (New... opens a form for a new resource of that type,
// validated by the server with errors shown under their fields): which top-level elements get
// an input of their own, how the inputs and the JSON of the other fields become one resource, and
// which field each of the server's issues belongs under (SPEC §5, §8 issues by expression).
import type { ElementDefinition, OperationOutcome, Resource } from '@medplum/fhirtypes';
import type { TypeSchema } from '../../../client';
import { OperationOutcomeError } from '../../../fhir/outcomes';
import { topLevelElements } from './elementLayout';
import { elementLabel } from './valueText';

/** The field name the JSON editor's issues go under. */
export const JSON_FIELD = 'json';

/** Primitive types a single text input (or a yes/no choice) can hold. */
const INPUT_TYPES = new Set([
  'string',
  'code',
  'markdown',
  'uri',
  'url',
  'canonical',
  'boolean',
  'date',
  'dateTime',
  'instant',
  'time',
  'integer',
  'positiveInt',
  'unsignedInt',
  'decimal',
]);
const NUMBER_TYPES = new Set(['integer', 'positiveInt', 'unsignedInt', 'decimal']);
const NOT_ENTERED = new Set([
  'id',
  'meta',
  'implicitRules',
  'text',
  'contained',
  'extension',
  'modifierExtension',
]);

export const FORMAT_HINTS: Record<string, string> = {
  date: 'YYYY, YYYY-MM or YYYY-MM-DD',
  dateTime: 'YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+zz:zz',
  instant: 'YYYY-MM-DDThh:mm:ss.sss+zz:zz',
  time: 'hh:mm:ss',
};

export interface InputField {
  readonly name: string;
  readonly label: string;
  readonly typeCode: string;
  readonly required: boolean;
  readonly hint?: string;
  /** For a code with a required binding: the value set whose codes are the choices. */
  readonly valueSet?: string;
}

function singleInputType(element: ElementDefinition): string | undefined {
  const types = element.type ?? [];
  if (types.length !== 1 || element.max !== '1') return undefined;
  const code = types[0].code ?? '';
  return INPUT_TYPES.has(code) ? code : undefined;
}

/** Top-level elements with a single primitive value, in definition order. */
export function inputFieldsOf(schema: TypeSchema): InputField[] {
  const fields: InputField[] = [];
  for (const { name, element } of topLevelElements(schema)) {
    if (NOT_ENTERED.has(name) || name.endsWith('[x]')) continue;
    const typeCode = singleInputType(element);
    if (!typeCode) continue;
    const valueSet =
      typeCode === 'code' && element.binding?.strength === 'required' ? element.binding.valueSet : undefined;
    fields.push({
      name,
      label: elementLabel(name),
      typeCode,
      required: (element.min ?? 0) > 0,
      ...(FORMAT_HINTS[typeCode] ? { hint: FORMAT_HINTS[typeCode] } : {}),
      ...(valueSet ? { valueSet } : {}),
    });
  }
  return fields;
}

/** A typed value for the JSON body: numbers and booleans as such when they read as one, else the text
 * as typed, so the server's validation (not the form) judges it. */
function inputValue(field: InputField, text: string): unknown {
  if (field.typeCode === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (NUMBER_TYPES.has(field.typeCode)) {
    const number = Number(text);
    return text.trim() !== '' && Number.isFinite(number) ? number : text;
  }
  return text;
}

export type BuildResult =
  { readonly resource: Resource } | { readonly problems: Partial<Record<string, string>> };

/** The resource to create: the JSON editor's object, the resource type, and every filled input. */
export function buildResource(
  resourceType: string,
  fields: readonly InputField[],
  values: Readonly<Record<string, string>>,
  json: string,
): BuildResult {
  let other: unknown;
  try {
    other = json.trim() === '' ? {} : JSON.parse(json);
  } catch (err) {
    return {
      problems: { [JSON_FIELD]: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` },
    };
  }
  if (typeof other !== 'object' || other === null || Array.isArray(other)) {
    return { problems: { [JSON_FIELD]: 'Enter a JSON object, for example {"name": [{"family": "Doe"}]}' } };
  }
  const object = other as Record<string, unknown>;
  if (object.resourceType !== undefined && object.resourceType !== resourceType) {
    return { problems: { [JSON_FIELD]: `The resourceType must be ${resourceType}` } };
  }
  const resource: Record<string, unknown> = { resourceType, ...object };
  resource.resourceType = resourceType;
  for (const field of fields) {
    const text = values[field.name] ?? '';
    if (text !== '') resource[field.name] = inputValue(field, text);
  }
  return { resource: resource as unknown as Resource };
}

/**
 * The form field an issue expression belongs to: 'Patient.birthDate' → 'birthDate' when that has an
 * input, 'Patient.name[0].given' → the JSON editor; undefined for no expression.
 */
export function fieldOfExpression(
  expression: string,
  resourceType: string,
  inputNames: ReadonlySet<string>,
): string {
  const relative = expression.startsWith(`${resourceType}.`)
    ? expression.slice(resourceType.length + 1)
    : expression;
  const top = /^[A-Za-z0-9_]+/.exec(relative)?.[0] ?? '';
  return inputNames.has(top) ? top : JSON_FIELD;
}

/**
 * The server's outcome with each issue's expression replaced by the form field it belongs under, so
 * useOutcomeForm shows it there; issues for the JSON editor keep their path in the text.
 */
export function outcomeByFormField(
  outcome: OperationOutcome,
  resourceType: string,
  inputNames: ReadonlySet<string>,
): OperationOutcome {
  return {
    ...outcome,
    issue: (outcome.issue ?? []).map((issue) => {
      const expression = issue.expression?.[0];
      if (!expression || expression === 'resourceType') return issue;
      const field = fieldOfExpression(expression, resourceType, inputNames);
      const text = issue.details?.text ?? issue.diagnostics ?? issue.code;
      return field === JSON_FIELD
        ? { ...issue, expression: [JSON_FIELD], details: { text: `${expression}: ${text}` } }
        : { ...issue, expression: [field] };
    }),
  };
}

/** Rethrows a refused create with its issues moved under the form's fields. */
export function refieldError(err: unknown, resourceType: string, inputNames: ReadonlySet<string>): unknown {
  if (err instanceof OperationOutcomeError) {
    return new OperationOutcomeError(outcomeByFormField(err.outcome, resourceType, inputNames));
  }
  return err;
}
