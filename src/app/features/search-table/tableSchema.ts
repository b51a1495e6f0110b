// What the table knows about one resource type, built from the StructureDefinitionFields (the
// StructureDefinitionList query with only the elements' paths and types) and SearchParameterList answers (SPEC §7 schema load): its fields (top-level elements), its search
// parameters, which parameter a column sorts and filters by, and the lookup src/fhir's URL parser
// needs in a browser that never loads the FHIR definitions index.
import type { SearchParameterType } from '../../../fhir/definitions';
import type { SearchParameterLookup } from '../../../fhir/search';
import type { SearchParameterListQuery, StructureDefinitionFieldsQuery } from '../../../graphql';

export interface TableSearchParameter {
  readonly code: string;
  readonly type: SearchParameterType;
  readonly expression: string;
  readonly target?: string[];
}

export interface TableField {
  /** The JSON name without the choice suffix ('status', 'effective'), or '_lastUpdated'. */
  readonly name: string;
  readonly label: string;
  /** FHIR type codes of the element ('dateTime', 'Period', 'CodeableConcept'...). */
  readonly types: readonly string[];
}

export interface TableSchema {
  readonly resourceType: string;
  readonly fields: readonly TableField[];
  readonly parameters: ReadonlyMap<string, TableSearchParameter>;
  readonly lookup: SearchParameterLookup;
  /** True while the real schema is on its way: fields and parameters are still unknown. */
  readonly provisional?: boolean;
}

const SEARCH_PARAMETER_TYPES: readonly SearchParameterType[] = [
  'number',
  'date',
  'string',
  'token',
  'reference',
  'composite',
  'quantity',
  'uri',
  'special',
];
/** Elements no one reads as a column. */
const HIDDEN_ELEMENTS = new Set(['text', 'contained', 'extension', 'modifierExtension', 'implicitRules']);

type Definitions = StructureDefinitionFieldsQuery['StructureDefinitionList'];
type Parameters = SearchParameterListQuery['SearchParameterList'];

/** 'birthDate' → 'Birth Date', '_lastUpdated' → 'Last Updated', 'id' → 'ID'. */
export function fieldLabel(name: string): string {
  if (name === 'id' || name === '_id') return 'ID';
  const words = name
    .replace(/^_/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s-]+/);
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

function isParameterType(value: string | null): value is SearchParameterType {
  return (SEARCH_PARAMETER_TYPES as readonly (string | null)[]).includes(value);
}

function indexParameters(lists: readonly Parameters[]): Map<string, TableSearchParameter> {
  const byCode = new Map<string, TableSearchParameter>();
  for (const list of lists) {
    for (const param of list ?? []) {
      if (!param?.code || !isParameterType(param.type) || byCode.has(param.code)) continue;
      const target = (param.target ?? []).filter((value): value is string => Boolean(value));
      byCode.set(param.code, {
        code: param.code,
        type: param.type,
        expression: param.expression ?? '',
        ...(target.length > 0 ? { target } : {}),
      });
    }
  }
  return byCode;
}

function fieldsOf(resourceType: string, definitions: Definitions): TableField[] {
  const definition = (definitions ?? []).find((sd) => sd?.name === resourceType && sd.kind === 'resource');
  const outlines = (definition?.snapshot?.element ?? []).map((element) => ({
    path: element?.path ?? '',
    types: (element?.type ?? []).map((type) => type?.code ?? '').filter(Boolean),
  }));
  const fields: TableField[] = [{ name: 'id', label: 'ID', types: ['id'] }];
  for (const outline of outlines) {
    const name = outline.path.slice(resourceType.length + 1).replace(/\[x\]$/, '');
    if (!outline.path.startsWith(`${resourceType}.`) || name.includes('.') || name === 'id') continue;
    if (HIDDEN_ELEMENTS.has(name)) continue;
    fields.push({ name, label: fieldLabel(name), types: outline.types });
  }
  fields.push({
    name: '_lastUpdated',
    label: 'Last Updated',
    types: ['instant'],
  });
  return fields;
}

/** The schema of `resourceType`, or undefined when the server knows no such resource type. */
export function buildTableSchema(
  resourceType: string,
  definitions: Definitions,
  parameterLists: readonly Parameters[],
): TableSchema | undefined {
  const known = (definitions ?? []).some((sd) => sd?.name === resourceType && sd.kind === 'resource');
  if (!known) return undefined;
  const parameters = indexParameters(parameterLists);
  const lookup: SearchParameterLookup = (type, code) => {
    if (type !== resourceType) return undefined;
    const param = parameters.get(code);
    return param ? { type: param.type, ...(param.target ? { target: param.target } : {}) } : undefined;
  };
  return { resourceType, fields: fieldsOf(resourceType, definitions), parameters, lookup };
}

/**
 * What the table can show before the schema answers: the columns (labels come from the field names
 * alone) and the rows of a URL without filters; sorting, filtering and the field list wait for it.
 */
export function provisionalSchema(resourceType: string): TableSchema {
  return { resourceType, fields: [], parameters: new Map(), lookup: () => undefined, provisional: true };
}

/** The parts of a FHIRPath union naming one path each: '(Observation.effective as dateTime)' → 'Observation.effective'. */
function expressionPaths(expression: string): string[] {
  return expression.split('|').map((part) =>
    part
      .trim()
      .replace(/^\(+|\)+$/g, '')
      .replace(/\s+as\s+\w+$/, '')
      .replace(/\.as\(\w+\)$/, '')
      .replace(/\.where\(.*\)$/, '')
      .trim(),
  );
}

/** The search parameter a column sorts and filters by: id → _id, _lastUpdated, same code, or the
 * parameter whose expression is exactly this element ('effective' → date). */
export function parameterForField(schema: TableSchema, field: string): TableSearchParameter | undefined {
  // Asked per column on every render of the table: each schema's answers are kept.
  let known = parameterCache.get(schema);
  if (!known) parameterCache.set(schema, (known = new Map()));
  if (known.has(field)) return known.get(field);
  const found = findParameterForField(schema, field);
  known.set(field, found);
  return found;
}

const parameterCache = new WeakMap<TableSchema, Map<string, TableSearchParameter | undefined>>();

function findParameterForField(schema: TableSchema, field: string): TableSearchParameter | undefined {
  if (field === 'id') return schema.parameters.get('_id');
  const direct = schema.parameters.get(field) ?? schema.parameters.get(field.toLowerCase());
  if (direct) return direct;
  const path = `${schema.resourceType}.${field}`;
  for (const param of schema.parameters.values()) {
    if (expressionPaths(param.expression).includes(path)) return param;
  }
  return undefined;
}

/** The FHIR types of the element a parameter searches (for its value input: boolean, date or dateTime). */
export function parameterElementTypes(schema: TableSchema, param: TableSearchParameter): string[] {
  const prefix = `${schema.resourceType}.`;
  for (const path of expressionPaths(param.expression)) {
    if (!path.startsWith(prefix)) continue;
    const field = schema.fields.find((candidate) => candidate.name === path.slice(prefix.length));
    if (field) return [...field.types];
  }
  return [];
}
