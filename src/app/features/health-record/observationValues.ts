// Text of the FHIR values a results table shows: quantities (units in printed form, weights in the
// reader's unit, numbers in the app's language), ranges, codeable concepts, references.
import { formatNumber, humanUnitsInText, localQuantity } from '../../components/plainUnits';

export interface QuantityLike {
  readonly value?: number | null;
  readonly unit?: string | null;
}

export interface ConceptLike {
  readonly text?: string | null;
  readonly coding?: ReadonlyArray<{
    readonly display?: string | null;
    readonly code?: string | null;
  } | null> | null;
}

export interface RangeLike {
  readonly text?: string | null;
  readonly low?: QuantityLike | null;
  readonly high?: QuantityLike | null;
}

export interface ValueLike {
  readonly valueQuantity?: QuantityLike | null;
  readonly valueString?: string | null;
  readonly valueCodeableConcept?: ConceptLike | null;
}

export function quantityText(quantity: QuantityLike | null | undefined): string {
  if (!quantity || quantity.value === null || quantity.value === undefined) return '';
  const { value, unit } = localQuantity(quantity.value, quantity.unit);
  return unit ? `${formatNumber(value)} ${unit}` : formatNumber(value);
}

export function conceptText(concept: ConceptLike | null | undefined): string {
  if (!concept) return '';
  if (concept.text) return concept.text;
  const coding = concept.coding?.find((c) => c?.display || c?.code);
  return coding?.display ?? coding?.code ?? '';
}

export function conceptsText(concepts: ReadonlyArray<ConceptLike | null> | null | undefined): string {
  return (concepts ?? [])
    .map((concept) => conceptText(concept))
    .filter(Boolean)
    .join(', ');
}

export function observationValueText(observation: ValueLike): string {
  return (
    quantityText(observation.valueQuantity) ||
    observation.valueString ||
    conceptText(observation.valueCodeableConcept)
  );
}

/** A reference range as text: its text, else "low – high", "≥ low" or "≤ high". */
export function rangeText(range: RangeLike | null | undefined): string {
  if (!range) return '';
  if (range.text) return humanUnitsInText(range.text);
  const low = quantityText(range.low);
  const high = quantityText(range.high);
  if (low && high) return `${low} – ${high}`;
  if (low) return `≥ ${low}`;
  if (high) return `≤ ${high}`;
  return '';
}

export function rangesText(ranges: ReadonlyArray<RangeLike | null> | null | undefined): string {
  return (ranges ?? [])
    .map((range) => rangeText(range))
    .filter(Boolean)
    .join('; ');
}

export function referenceText(
  refs:
    | ReadonlyArray<{ readonly display?: string | null; readonly reference?: string | null } | null>
    | null
    | undefined,
): string {
  return (refs ?? [])
    .map((ref) => ref?.display ?? ref?.reference ?? '')
    .filter(Boolean)
    .join(', ');
}
