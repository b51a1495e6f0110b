// Which fields a resource page shows, in which order, with which type: the type's StructureDefinition
// snapshot (useResourceSchema, SPEC §7 schema load) walked one level at a time, so fields are laid
// out by the definition. Pure, so the layout is tested without rendering.
import type { ElementDefinition } from '@medplum/fhirtypes';
import type { TypeSchema } from '../../../client';
import { elementLabel } from './valueText';

export interface FieldView {
  /** The JSON property ('birthDate', 'valueQuantity'). */
  readonly name: string;
  readonly label: string;
  /** The FHIR type of the values ('string', 'Quantity', 'BackboneElement'). */
  readonly typeCode: string;
  /** The present values (an array element's items; a single value as a list of one). */
  readonly values: readonly unknown[];
  /** For nested (backbone) elements: the schema path of their children ('contact', 'item'). */
  readonly childPath?: string;
}

/** Housekeeping elements the page shows elsewhere (meta in the header and history) or not at all. */
const HIDDEN_TOP_LEVEL = new Set(['id', 'meta', 'text', 'contained', 'extension', 'modifierExtension']);
const HIDDEN_NESTED = new Set(['id', 'extension', 'modifierExtension']);

function childKeys(schema: TypeSchema, path: string): string[] {
  const prefix = path ? `${path}.` : '';
  return Object.keys(schema.elements).filter(
    (key) => key.startsWith(prefix) && !key.slice(prefix.length).includes('.'),
  );
}

function hasChildren(schema: TypeSchema, path: string): boolean {
  const prefix = `${path}.`;
  return Object.keys(schema.elements).some((key) => key.startsWith(prefix));
}

/** '#Questionnaire.item' → 'item' (a recursive element points at the path holding its children). */
function referencedPath(schema: TypeSchema, element: ElementDefinition): string | undefined {
  const ref = element.contentReference;
  if (!ref) return undefined;
  const path = ref.replace(/^#/, '');
  const dot = path.indexOf('.');
  return dot === -1 ? undefined : path.slice(dot + 1);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.filter((item) => item !== undefined && item !== null) : [value];
}

/** The fields of `value` (the resource, or a nested element at schema path `path`) that have values. */
export function fieldsOf(
  schema: TypeSchema,
  path: string,
  value: Readonly<Record<string, unknown>>,
): FieldView[] {
  const hidden = path ? HIDDEN_NESTED : HIDDEN_TOP_LEVEL;
  const fields: FieldView[] = [];
  for (const key of childKeys(schema, path)) {
    const element = schema.elements[key];
    const name = key.slice(path ? path.length + 1 : 0);
    if (hidden.has(name)) continue;
    const label = elementLabel(name);
    if (name.endsWith('[x]')) {
      // A choice: the value sits under one typed property, valueQuantity, valueString...
      const stem = name.slice(0, -3);
      for (const type of element.type ?? []) {
        const property = stem + capitalize(type.code ?? '');
        const values = asList(value[property]);
        if (values.length > 0)
          fields.push({ name: property, label, typeCode: type.code ?? 'string', values });
      }
      continue;
    }
    const values = asList(value[name]);
    if (values.length === 0) continue;
    const contentPath = referencedPath(schema, element);
    const typeCode = element.type?.[0]?.code ?? (contentPath ? 'BackboneElement' : 'string');
    const nested = contentPath ?? (hasChildren(schema, key) ? key : undefined);
    fields.push({ name, label, typeCode, values, ...(nested ? { childPath: nested } : {}) });
  }
  return fields;
}

/** Top-level elements in definition order, for the new-resource form. */
export function topLevelElements(schema: TypeSchema): Array<{ name: string; element: ElementDefinition }> {
  return childKeys(schema, '').map((key) => ({ name: key, element: schema.elements[key] }));
}
