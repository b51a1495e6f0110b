// Vitals as the reader reads them: units in printed form (mmHg), weight in her locale's unit (kg or
// lb; stored in lb as SPEC §3 says), and a chart's value axis fitted to the readings, not from 0.
import { convertWeight, humanUnit, weightUnitFor } from '../../components/plainUnits';
import { seriesValue, type VitalMeasurement, type VitalSeries, type VitalType } from './vitalTypes';

/** The unit shown for a vital type. */
export function vitalUnit(vital: VitalType, locale?: string): string {
  return vital.slug === 'weight' ? weightUnitFor(locale) : humanUnit(vital.unit);
}

/** One series' value of a measurement in the shown unit; null when missing. */
export function displayValue(
  measurement: VitalMeasurement,
  series: VitalSeries,
  vital: VitalType,
  locale?: string,
): number | null {
  const value = seriesValue(measurement, series);
  if (vital.slug !== 'weight') return value;
  const from = measurement.valueQuantity?.unit === 'kg' ? 'kg' : 'lb';
  return convertWeight(value, from, weightUnitFor(locale));
}

/** An entered value in the shown unit, as the stored unit of the vital type (weight in lb). */
export function storedValue(value: number, vital: VitalType, locale?: string): number {
  if (vital.slug !== 'weight') return value;
  return convertWeight(value, weightUnitFor(locale), 'lb') ?? value;
}

/**
 * A value axis around the readings: a margin of a fifth of their spread (at least 2 units) on each
 * side, on whole numbers, so a 20 lb change is a visible slope rather than a flat line near the top.
 */
export function valueAxisRange(values: readonly (number | null)[]): { min: number; max: number } | undefined {
  const numbers = values.filter((value): value is number => value !== null && Number.isFinite(value));
  if (numbers.length === 0) return undefined;
  const low = Math.min(...numbers);
  const high = Math.max(...numbers);
  const margin = Math.max((high - low) / 5, 2);
  return { min: Math.max(0, Math.floor(low - margin)), max: Math.ceil(high + margin) };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The week of pregnancy on a day, from the due date (40 weeks after the last period's first day), or
 * undefined outside the pregnancy. Home computes the same from the same date.
 */
export function pregnancyWeek(dueDate: string, at: Date): number | undefined {
  const due = Date.parse(dueDate.length === 10 ? `${dueDate}T00:00:00Z` : dueDate);
  if (Number.isNaN(due)) return undefined;
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const elapsed = 280 - Math.round((due - day) / DAY_MS);
  return elapsed < 0 || elapsed > 42 * 7 ? undefined : Math.floor(elapsed / 7);
}
