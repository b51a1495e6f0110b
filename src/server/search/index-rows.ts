// The rows one resource contributes to the search index tables (see schema.ts), one list per table.
// Every row carries the search parameter's code; the table's own columns hold the typed value.

export interface TokenRow {
  code: string;
  system: string | null;
  value: string | null;
  /** Folded display text (CodeableConcept.text, Coding.display, Identifier.type.text) for :text. */
  text: string | null;
}

export interface StringRow {
  code: string;
  /** Folded (normalizeText) for the default prefix, :contains and :text searches. */
  value: string;
  /** As written, for :exact. */
  exact: string;
}

export interface DateRow {
  code: string;
  low: string;
  high: string;
}

export interface NumberRow {
  code: string;
  value: number;
}

export interface QuantityRow {
  code: string;
  value: number;
  system: string | null;
  /** Quantity.code (the coded unit, e.g. UCUM 'mm[Hg]'). */
  unit: string | null;
  /** Quantity.unit (the human unit, e.g. 'mmHg'), also matched by a query's unit. */
  unitText: string | null;
}

export interface ReferenceRow {
  code: string;
  targetType: string | null;
  targetId: string | null;
  /** The reference as written (absolute URLs, canonicals). */
  reference: string;
}

export interface UriRow {
  code: string;
  value: string;
}

/** One composite value: its first component is a token (or reference); the second is typed. */
export interface CompositeRow {
  code: string;
  system1: string | null;
  value1: string | null;
  system2: string | null;
  value2: string | null;
  number2: number | null;
  low2: string | null;
  high2: string | null;
}

/** `_text` (the narrative) or `_content` (every string of the resource), folded, for full-text search. */
export interface TextRow {
  code: '_text' | '_content';
  value: string;
}

export interface IndexRows {
  token: TokenRow[];
  string: StringRow[];
  date: DateRow[];
  number: NumberRow[];
  quantity: QuantityRow[];
  reference: ReferenceRow[];
  uri: UriRow[];
  composite: CompositeRow[];
  /** Filled for stored resources only (stored-index-rows.ts), not by extractIndexRows. */
  text: TextRow[];
}

export function emptyIndexRows(): IndexRows {
  return {
    token: [],
    string: [],
    date: [],
    number: [],
    quantity: [],
    reference: [],
    uri: [],
    composite: [],
    text: [],
  };
}
