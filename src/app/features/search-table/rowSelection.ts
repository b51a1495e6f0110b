// What the ResourceList operation selects for one column: enough of the element for its cell text
// (./fieldValue.ts), written as src/graphql/resource-list-query.ts parses it. A primitive is its name;
// a data type the parts a person reads (a CodeableConcept's text and codings, a Reference's display);
// a choice element each of its typed properties; a backbone element its own children, two levels
// deep. Contained resources and the rare data types not listed here are left out of the cells.
export interface ElementOutline {
  /** 'Observation.value[x]', 'Patient.contact.name'. */
  readonly path: string;
  /** FHIR type codes ('Quantity', 'dateTime', 'BackboneElement'). */
  readonly types: readonly string[];
}

const CODING = 'system code display';
const QUANTITY = 'value comparator unit system code';
const REFERENCE = 'reference display';

const DATA_TYPES: Readonly<Record<string, string>> = {
  Address: 'use text line city state postalCode country',
  Age: QUANTITY,
  Annotation: `text time authorString authorReference{${REFERENCE}}`,
  Attachment: 'contentType url title',
  CodeableConcept: `text coding{${CODING}}`,
  Coding: CODING,
  ContactDetail: 'name',
  ContactPoint: 'system value use',
  Count: QUANTITY,
  Distance: QUANTITY,
  Dosage: 'text',
  Duration: QUANTITY,
  Expression: 'expression',
  HumanName: 'use text family given prefix suffix',
  Identifier: 'system value',
  Meta: 'versionId lastUpdated',
  Money: 'value currency',
  Period: 'start end',
  Quantity: QUANTITY,
  Range: 'low{value unit} high{value unit}',
  Ratio: 'numerator{value unit} denominator{value unit}',
  Reference: REFERENCE,
  RelatedArtifact: 'type display url',
  SampledData: 'data',
  Signature: `when who{${REFERENCE}}`,
  Timing: `event code{text coding{${CODING}}}`,
  UsageContext: `code{${CODING}}`,
};

const BACKBONE_TYPES = new Set(['BackboneElement', 'Element']);
const SKIPPED_CHILDREN = new Set(['id', 'extension', 'modifierExtension']);
const MAX_BACKBONE_DEPTH = 2;

/** Primitives are lower-case in FHIR; an `id` element's type is a FHIRPath system type URL. */
function isPrimitive(type: string): boolean {
  return /^[a-z]/.test(type) || type.startsWith('http://hl7.org/fhirpath/');
}

function propertyName(path: string, type: string): string {
  const last = path.slice(path.lastIndexOf('.') + 1);
  return last.endsWith('[x]') ? last.slice(0, -3) + type.charAt(0).toUpperCase() + type.slice(1) : last;
}

export function elementSelection(element: ElementOutline, all: readonly ElementOutline[], depth = 0): string {
  const parts = new Set<string>();
  for (const type of element.types) {
    const property = propertyName(element.path, type);
    if (isPrimitive(type)) {
      parts.add(property);
    } else if (DATA_TYPES[type]) {
      parts.add(`${property}{${DATA_TYPES[type]}}`);
    } else if (BACKBONE_TYPES.has(type) && depth < MAX_BACKBONE_DEPTH) {
      const children = all
        .filter((child) => child.path.startsWith(`${element.path}.`))
        .filter((child) => !child.path.slice(element.path.length + 1).includes('.'))
        .filter((child) => !SKIPPED_CHILDREN.has(propertyName(child.path, '')))
        .map((child) => elementSelection(child, all, depth + 1))
        .filter(Boolean);
      if (children.length > 0) parts.add(`${property}{${children.join(' ')}}`);
    }
  }
  return [...parts].join(' ');
}
