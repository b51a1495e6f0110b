// A manually entered measurement as the Observation SPEC §3 describes: status preliminary, subject,
// effectiveDateTime, LOINC code, UCUM valueQuantity (blood pressure: systolic and diastolic components).
import type { Observation, Quantity } from '@medplum/fhirtypes';
import { observationCategory } from '../../../fhir/observation-category';
import type { VitalType } from './vitalTypes';

const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';

/** The decimal mark of a locale ('.' in English, ',' in Spanish). */
function decimalMark(locale: string): string {
  return (
    new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.'
  );
}

/**
 * SPEC §5 "Measurement values are parsed as decimal numbers": undefined when the text is not one. With a
 * locale, its decimal mark is read as the point too (150,5 in Spanish), as the screens print numbers so.
 */
export function parseDecimal(text: string, locale?: string): number | undefined {
  const mark = locale ? decimalMark(locale) : '.';
  const trimmed = mark === '.' ? text.trim() : text.trim().replace(mark, '.');
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

export function vitalObservation(
  vital: VitalType,
  values: readonly number[],
  patient: string,
  when: Date,
): Observation {
  const quantity = (value: number): Quantity => ({ value, unit: vital.unit, system: UCUM, code: vital.ucum });
  const base: Observation = {
    resourceType: 'Observation',
    status: 'preliminary',
    category: observationCategory('vital-signs'),
    code: { coding: [{ system: LOINC, code: vital.code, display: vital.display }], text: vital.title },
    subject: { reference: patient },
    effectiveDateTime: when.toISOString(),
  };
  if (vital.series.some((series) => series.componentCode)) {
    return {
      ...base,
      component: vital.series.map((series, index) => ({
        code: {
          coding: [{ system: LOINC, code: series.componentCode ?? '', display: series.display }],
          text: series.label,
        },
        valueQuantity: quantity(values[index]),
      })),
    };
  }
  return { ...base, valueQuantity: quantity(values[0]) };
}
