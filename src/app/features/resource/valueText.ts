// Readable text of the FHIR data types a generic resource page shows (CodeableConcept, Quantity,
// Reference, Period, HumanName, Address…). Pure: one function per type.
import type {
  Address,
  Annotation,
  CodeableConcept,
  Coding,
  ContactPoint,
  Identifier,
  Period,
  Quantity,
  Range,
  Ratio,
  Reference,
} from '@medplum/fhirtypes';
import { formatFhirDate } from '../../components/DateTimeDisplay';

export { formatHumanName } from '../../../fhir/references';

function joined(parts: ReadonlyArray<string | number | undefined | null>, separator = ' '): string {
  return parts.filter((part) => part !== undefined && part !== null && part !== '').join(separator);
}

export function codingText(coding: Coding): string {
  if (coding.display && coding.code) return `${coding.display} (${coding.code})`;
  return coding.display ?? coding.code ?? '';
}

export function codeableConceptText(concept: CodeableConcept): string {
  if (concept.text) return concept.text;
  return joined((concept.coding ?? []).map(codingText), ', ');
}

/** Quantity and its kin (Age, Duration, Distance, Count, SimpleQuantity): comparator, value, unit. */
export function quantityText(quantity: Quantity): string {
  return joined([quantity.comparator, quantity.value, quantity.unit ?? quantity.code]);
}

export function moneyText(money: { value?: number; currency?: string }): string {
  return joined([money.value, money.currency]);
}

export function rangeText(range: Range): string {
  const low = range.low ? quantityText(range.low) : '';
  const high = range.high ? quantityText(range.high) : '';
  if (low && high) return `${low} – ${high}`;
  if (low) return `≥ ${low}`;
  if (high) return `≤ ${high}`;
  return '';
}

export function ratioText(ratio: Ratio): string {
  const numerator = ratio.numerator ? quantityText(ratio.numerator) : '';
  const denominator = ratio.denominator ? quantityText(ratio.denominator) : '';
  return denominator ? `${numerator} / ${denominator}` : numerator;
}

export function periodText(period: Period, locale?: string): string {
  const start = period.start ? formatFhirDate(period.start, locale) : '';
  const end = period.end ? formatFhirDate(period.end, locale) : '';
  if (start && end) return `${start} – ${end}`;
  if (start) return `From ${start}`;
  if (end) return `Until ${end}`;
  return '';
}

export function addressText(address: Address): string {
  if (address.text) return address.text;
  const cityLine = joined([address.city, joined([address.state, address.postalCode])], ', ');
  return joined([...(address.line ?? []), cityLine, address.country], ', ');
}

export function contactPointText(contact: ContactPoint): string {
  const value = joined([contact.value, contact.use ? `(${contact.use})` : undefined]);
  return contact.system ? `${contact.system}: ${value}` : value;
}

export function identifierText(identifier: Identifier): string {
  const label = identifier.type ? codeableConceptText(identifier.type) : identifier.system;
  return label ? `${label}: ${identifier.value ?? ''}` : (identifier.value ?? '');
}

export function annotationText(annotation: Annotation, locale?: string): string {
  const by = annotation.authorString ?? annotation.authorReference?.display;
  const when = annotation.time ? formatFhirDate(annotation.time, locale) : undefined;
  const source = joined([by, when], ', ');
  return source ? `${annotation.text} (${source})` : annotation.text;
}

/** What a reference link says: its display, else the reference, else its identifier. */
export function referenceText(reference: Reference): string {
  return (
    reference.display ??
    reference.reference ??
    (reference.identifier ? identifierText(reference.identifier) : '')
  );
}

/** 'birthDate' → 'Birth Date', 'value[x]' → 'Value' (labels from element names, as Medplum's app). */
export function elementLabel(name: string): string {
  const base = name.replace(/\[x\]$/, '');
  const words = base.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
