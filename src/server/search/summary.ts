// `_summary` (true, text, data) and `_elements`/`_fields` projections of a search's matches
// (FHIR R4 search §3.1.1.5.8-9), driven by the definitions' isSummary flags and cardinalities.
// A projected resource is tagged SUBSETTED so nobody mistakes it for the whole resource.
import type { Coding, Resource } from '@medplum/fhirtypes';
import type { ElementSchema, TypeSchema } from '../../fhir';
import { getSearchParameter, getTypeSchema } from '../../fhir';
import type { SummaryMode } from '../../fhir/search';

export const SUBSETTED_TAG: Coding = {
  system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue',
  code: 'SUBSETTED',
  display: 'subsetted',
};

/** Always kept: what makes a resource a resource (FHIR: id and meta, and resourceType in JSON). */
const ALWAYS_KEPT = new Set(['resourceType', 'id', 'meta']);

type JsonObject = Record<string, unknown>;

/** The element of `schema` a JSON property belongs to ('valueQuantity' → value[x]). */
function elementOf(schema: TypeSchema, property: string): ElementSchema | undefined {
  return schema.properties.get(property)?.element ?? schema.elements.get(property);
}

function withSubsettedTag(resource: JsonObject): Resource {
  const meta = (resource.meta ?? {}) as { tag?: Coding[] };
  const tags = meta.tag ?? [];
  const tagged = tags.some((tag) => tag.system === SUBSETTED_TAG.system && tag.code === SUBSETTED_TAG.code);
  return {
    ...resource,
    meta: { ...meta, tag: tagged ? tags : [...tags, SUBSETTED_TAG] },
  } as unknown as Resource;
}

/** Keeps the summary elements of an object of type `schema`, descending into backbone elements. */
function summaryOf(value: JsonObject, schema: TypeSchema): JsonObject {
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    const element = elementOf(schema, key.startsWith('_') ? key.slice(1) : key);
    if (!ALWAYS_KEPT.has(key) && !element?.isSummary) {
      continue;
    }
    const nested = element && element.types.length === 1 ? getTypeSchema(element.types[0].code) : undefined;
    out[key] = nested?.kind === 'backbone' ? projectNested(child, nested) : child;
  }
  return out;
}

function projectNested(value: unknown, schema: TypeSchema): unknown {
  if (Array.isArray(value)) {
    return value.map((item: unknown) => projectNested(item, schema));
  }
  return typeof value === 'object' && value !== null ? summaryOf(value as JsonObject, schema) : value;
}

function keepTopLevel(
  resource: JsonObject,
  keep: (key: string, element: ElementSchema | undefined) => boolean,
): JsonObject {
  const schema = getTypeSchema(String(resource.resourceType));
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(resource)) {
    const element = schema && elementOf(schema, key.startsWith('_') ? key.slice(1) : key);
    if (ALWAYS_KEPT.has(key) || keep(key, element)) {
      out[key] = value;
    }
  }
  return out;
}

/** `_summary`: true (isSummary elements), text (text, id, meta, mandatory), data (all but text). */
export function applySummary(resource: Resource, mode: SummaryMode): Resource {
  const json = resource as unknown as JsonObject;
  switch (mode) {
    case 'true': {
      const schema = getTypeSchema(resource.resourceType);
      return withSubsettedTag(schema ? summaryOf(json, schema) : json);
    }
    case 'text':
      return withSubsettedTag(
        keepTopLevel(json, (key, element) => key === 'text' || (element?.min ?? 0) > 0),
      );
    case 'data':
      return withSubsettedTag(keepTopLevel(json, (key) => key !== 'text'));
    default:
      return resource;
  }
}

/**
 * The top-level element names a field stands for: an element ('status', 'valueQuantity', 'value')
 * or a search parameter code whose expression reads top-level elements ('date' → effective[x]).
 */
function fieldElementNames(resourceType: string, schema: TypeSchema, field: string): string[] {
  const top = field.split('.')[0];
  const element = elementOf(schema, top) ?? schema.elements.get(`${top}[x]`);
  if (element) {
    return [element.name];
  }
  const param = getSearchParameter(resourceType, field);
  if (!param) {
    return [];
  }
  const names: string[] = [];
  for (const match of param.expression.matchAll(new RegExp(`\\b${resourceType}\\.(\\w+)`, 'g'))) {
    const found = elementOf(schema, match[1]) ?? schema.elements.get(`${match[1]}[x]`);
    if (found) names.push(found.name);
  }
  return names;
}

/** `_elements` / `_fields`: the listed elements plus id, meta and the mandatory ones. */
export function applyElements(resource: Resource, fields: readonly string[]): Resource {
  const schema = getTypeSchema(resource.resourceType);
  if (!schema) {
    return resource;
  }
  const wanted = new Set(fields.flatMap((field) => fieldElementNames(resource.resourceType, schema, field)));
  const json = resource as unknown as JsonObject;
  return withSubsettedTag(
    keepTopLevel(
      json,
      (_key, element) => element !== undefined && (wanted.has(element.name) || element.min > 0),
    ),
  );
}

/** The projection a search asks for, applied to one match (unchanged when it asks for none). */
export function projectMatch(
  resource: Resource,
  summary: SummaryMode | undefined,
  fields: readonly string[] | undefined,
): Resource {
  if (fields && fields.length > 0) {
    return applyElements(resource, fields);
  }
  return summary ? applySummary(resource, summary) : resource;
}
