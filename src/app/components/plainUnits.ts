// Units as a patient reads them: UCUM codes in their printed form (mm[Hg] → mmHg, 10*3/uL → ×10³/µL),
// units that are words in the app's language (h → hours, horas), and body weight in the unit of the
// reader's region (lb where people weigh in pounds, kg elsewhere).
import type { Message } from '../i18n/catalog';
import { i18n, translate } from '../i18n/i18n';
import { unitStrings } from './plainWords/strings';

const NAMED: Readonly<Record<string, string>> = {
  'mm[Hg]': 'mmHg',
  '[lb_av]': 'lb',
  lbs: 'lb',
  Cel: '°C',
  '[degF]': '°F',
  '[IU]/mL': 'IU/mL',
  '[iU]/mL': 'IU/mL',
  '1': '',
};

const WORDS: Readonly<Record<string, Message>> = {
  '/min': unitStrings.perMinute,
  'beats/minute': unitStrings.perMinute,
  h: unitStrings.hours,
  min: unitStrings.minutes,
  d: unitStrings.days,
  wk: unitStrings.weeks,
};

const SUPERSCRIPT: Readonly<Record<string, string>> = {
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
};

/** A number in the given locale's digits and decimal mark (150.5, 150,5), without grouping. */
export function formatNumber(value: number, locale: string = i18n.locale): string {
  return value.toLocaleString(locale, { useGrouping: false, maximumFractionDigits: 6 });
}

/** The printed form of a unit: known names, then UCUM's 10*N, u (micro) and [brackets] rewritten. */
export function humanUnit(unit: string | null | undefined): string {
  if (!unit) return '';
  // Own keys only: a unit such as "constructor" is not one of these.
  if (Object.hasOwn(WORDS, unit)) return translate(WORDS[unit]);
  if (Object.hasOwn(NAMED, unit)) return NAMED[unit];
  return unit
    .replace(/10\*(\d+)/g, (_m, power: string) => `×10${[...power].map((d) => SUPERSCRIPT[d]).join('')}`)
    .replace(/(^|[/.])u(?=[LlgmM])/g, '$1µ')
    .replace(/\[([^\]]+)\]/g, '$1')
    .replace(/_av$/, '');
}

/** Free text (a reference range's text) with its UCUM-looking words in printed form. */
export function humanUnitsInText(text: string): string {
  return text
    .split(/(\s+)/)
    .map((word) => (/[*[\]]/.test(word) || word === 'lbs' ? humanUnit(word) : word))
    .join('');
}

export type WeightUnit = 'kg' | 'lb';
/** Regions where everyday body weight is in pounds. */
const POUND_REGIONS = new Set(['US', 'LR', 'MM']);
const KG_PER_LB = 0.45359237;

function readerLocale(): string | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.language;
}

/** The weight unit of a locale (en-US → lb, en-GB → kg); the browser's locale when none is given. */
export function weightUnitFor(locale: string | undefined = readerLocale()): WeightUnit {
  if (!locale) return 'kg';
  try {
    const region = new Intl.Locale(locale).maximize().region;
    return region && POUND_REGIONS.has(region) ? 'lb' : 'kg';
  } catch {
    return 'kg';
  }
}

function isPounds(unit: string | null | undefined): boolean {
  return unit === 'lbs' || unit === 'lb' || unit === '[lb_av]';
}

function isKilograms(unit: string | null | undefined): boolean {
  return unit === 'kg';
}

/** A body weight in `target`, rounded to one decimal; null stays null. */
export function convertWeight(value: number | null, from: WeightUnit, target: WeightUnit): number | null {
  if (value === null || from === target) return value;
  const converted = from === 'lb' ? value * KG_PER_LB : value / KG_PER_LB;
  return Math.round(converted * 10) / 10;
}

/** A quantity as the reader reads it: weights in her locale's unit, every unit in printed form. */
export function localQuantity(
  value: number,
  unit: string | null | undefined,
  locale?: string,
): { value: number; unit: string } {
  const target = weightUnitFor(locale);
  if (isPounds(unit) || isKilograms(unit)) {
    const from: WeightUnit = isPounds(unit) ? 'lb' : 'kg';
    return { value: convertWeight(value, from, target) ?? value, unit: target };
  }
  return { value, unit: humanUnit(unit) };
}
