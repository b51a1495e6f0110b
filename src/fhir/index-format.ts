// The compact on-disk form of src/fhir/generated/fhir-index.json, written by
// scripts/build-fhir-index.ts and expanded lazily by definitions.ts. Tuples keep the file small and
// JSON.parse fast; nothing outside these two modules should depend on this shape.

/** 'resource' | 'complex-type' | 'primitive-type' | 'logical', or 'backbone' for a nested element type. */
export type TypeKind = 'resource' | 'complex-type' | 'primitive-type' | 'logical' | 'backbone';

/**
 * One element: [min, max (-1 = unbounded), types, isArray (1 when the JSON form is an array),
 * binding (optional: index into CompactFhirIndex.bindings when the element is a `code` with a
 * required binding to a value set that resolved to a finite list)].
 * types is 'Code|Code(Target,Target)|…', e.g. 'Quantity|CodeableConcept|Reference(Patient,Group)'.
 * A nested (backbone) element's type is its path, e.g. 'Patient.contact'; a contentReference
 * points at the referenced path the same way (Questionnaire.item.item → 'Questionnaire.item').
 */
export type CompactElement =
  | [min: number, max: number, types: string, isArray: 0 | 1]
  | [min: number, max: number, types: string, isArray: 0 | 1, binding: number];

/** A required binding: [the value set as declared ('…/administrative-gender|4.0.1'), index into codeLists]. */
export type CompactBinding = [valueSet: string, codeList: number];

export interface CompactType {
  /** kind */
  k: TypeKind;
  /** abstract (present only when true) */
  a?: 1;
  /** base type name (present when the type derives from another) */
  b?: string;
  /** elements keyed by their name as declared ('value[x]' for a choice) */
  e: Record<string, CompactElement>;
  /** names of the elements marked isSummary (present only when some are) */
  s?: string[];
}

/** A search parameter: [code, type, expression, targets ('Patient|Group'), or '' when none]. */
export type CompactSearchParam = [code: string, type: string, expression: string, targets: string];

export interface CompactFhirIndex {
  version: string;
  types: Record<string, CompactType>;
  /** search parameters per concrete resource type, expressions narrowed to that type */
  search: Record<string, CompactSearchParam[]>;
  /** Patient CompartmentDefinition: search parameter codes per resource type */
  patientCompartment: Record<string, string[]>;
  /** required bindings of `code` elements, referenced by index from CompactElement */
  bindings: CompactBinding[];
  /** the codes of each resolved value set, one list per value set URL (version ignored) */
  codeLists: string[][];
}
