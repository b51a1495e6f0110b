// Turns a resource into search index rows by evaluating every search parameter of its type
// (FHIRPath expressions from the definitions) and converting each value by its FHIR type.
import type { Resource } from '@medplum/fhirtypes';
import { getSearchParameters } from '../../fhir';
import type { SearchParameterInfo } from '../../fhir';
import { getCompositeComponents } from './composite-components';
import { parseDateRange, periodRange } from './date-range';
import type { DateRange } from './date-range';
import { emptyIndexRows } from './index-rows';
import type { CompositeRow, IndexRows, TokenRow } from './index-rows';
import { normalizeText } from './normalize-text';
import { elementPaths, narrowedNames, reachesAny } from './element-paths';
import { evaluateTyped } from './typed-values';
import type { TypedValue } from './typed-values';

/** Parameters answered from the resource table's own columns (id, last_updated), never indexed twice. */
export const COLUMN_PARAMS: ReadonlySet<string> = new Set(['_id', '_lastUpdated']);

type Json = Record<string, unknown>;

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Characters of a display or text kept per part for `:text` search. A text at MAX_STRING_LENGTH
 * (1 MiB) kept whole made each `:text` search read megabytes per row (seconds for a few rows);
 * no label a person searches by is longer than this.
 */
export const MAX_TOKEN_TEXT = 4096;

function foldedOrNull(...parts: unknown[]): string | null {
  const text = parts
    .map(str)
    .filter((part): part is string => part !== undefined)
    .map((part) => part.slice(0, MAX_TOKEN_TEXT))
    .join(' ');
  return text ? normalizeText(text) : null;
}

/** Tokens of one value: a code, a Coding, each Coding of a CodeableConcept, an Identifier's system|value… */
export function tokensOf(code: string, typed: TypedValue): TokenRow[] {
  const { type, value } = typed;
  if (value === null || value === undefined) return [];
  if (typeof value === 'boolean' || typeof value === 'number') {
    return [{ code, system: null, value: String(value), text: null }];
  }
  if (typeof value === 'string') {
    return [{ code, system: null, value, text: null }];
  }
  const v = value as Json;
  switch (type) {
    case 'Coding':
      return [
        { code, system: str(v.system) ?? null, value: str(v.code) ?? null, text: foldedOrNull(v.display) },
      ];
    case 'CodeableConcept': {
      const codings = Array.isArray(v.coding) ? (v.coding as Json[]) : [];
      const rows: TokenRow[] = codings.map((coding) => ({
        code,
        system: str(coding.system) ?? null,
        value: str(coding.code) ?? null,
        text: foldedOrNull(v.text, coding.display),
      }));
      if (rows.length === 0 && str(v.text)) {
        rows.push({ code, system: null, value: null, text: foldedOrNull(v.text) });
      }
      return rows;
    }
    case 'Identifier': {
      const typeConcept = (v.type ?? {}) as Json;
      const rows: TokenRow[] = [
        {
          code,
          system: str(v.system) ?? null,
          value: str(v.value) ?? null,
          text: foldedOrNull(typeConcept.text),
        },
      ];
      // :of-type=typeSystem|typeCode|value: one extra row per type coding under a derived code.
      const typeCodings = Array.isArray(typeConcept.coding) ? (typeConcept.coding as Json[]) : [];
      for (const coding of typeCodings) {
        if (str(v.value)) {
          rows.push({
            code: `${code}:of-type`,
            system: str(coding.system) ?? null,
            value: `${str(coding.code) ?? ''}|${str(v.value)}`,
            text: null,
          });
        }
      }
      return rows;
    }
    case 'ContactPoint':
      // FHIR: a ContactPoint token matches its value; the system is the parameter's (email, phone).
      return str(v.value) ? [{ code, system: null, value: str(v.value) ?? null, text: null }] : [];
    case 'Quantity':
    case 'Age':
    case 'Duration':
    case 'Distance':
    case 'Count':
      return str(v.code)
        ? [{ code, system: str(v.system) ?? null, value: str(v.code) ?? null, text: null }]
        : [];
    case 'Reference':
      return str(v.reference)
        ? [{ code, system: null, value: str(v.reference) ?? null, text: foldedOrNull(v.display) }]
        : [];
    default:
      if (str(v.code) || str(v.value)) {
        return [
          { code, system: str(v.system) ?? null, value: str(v.code) ?? str(v.value) ?? null, text: null },
        ];
      }
      return [];
  }
}

/** The searchable strings of one value: a string, or a HumanName's or Address's parts. */
export function stringsOf(typed: TypedValue): string[] {
  const { type, value } = typed;
  if (typeof value === 'string') return value ? [value] : [];
  if (typeof value !== 'object' || value === null) return [];
  const v = value as Json;
  const parts: unknown[] = [];
  if (type === 'HumanName' || 'family' in v || 'given' in v) {
    parts.push(v.text, v.family, ...arr(v.given), ...arr(v.prefix), ...arr(v.suffix));
  } else if (type === 'Address' || 'city' in v || 'line' in v) {
    parts.push(v.text, ...arr(v.line), v.city, v.district, v.state, v.postalCode, v.country);
  } else {
    parts.push(v.text, v.display, v.value);
  }
  return parts.map(str).filter((s): s is string => s !== undefined);
}

function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The date ranges of one value: a date/dateTime/instant, a Period, a Timing's events and bounds. */
export function datesOf(typed: TypedValue): DateRange[] {
  const { value } = typed;
  if (typeof value === 'string') {
    const range = parseDateRange(value);
    return range ? [range] : [];
  }
  if (typeof value !== 'object' || value === null) return [];
  const v = value as Json;
  if ('start' in v || 'end' in v) {
    const range = periodRange(str(v.start), str(v.end));
    return range ? [range] : [];
  }
  const ranges: DateRange[] = [];
  for (const event of arr(v.event)) {
    const range = typeof event === 'string' ? parseDateRange(event) : undefined;
    if (range) ranges.push(range);
  }
  const bounds = (v.repeat as Json | undefined)?.boundsPeriod as Json | undefined;
  if (bounds) {
    const range = periodRange(str(bounds.start), str(bounds.end));
    if (range) ranges.push(range);
  }
  return ranges;
}

interface QuantityValue {
  value: number;
  system: string | null;
  unit: string | null;
  unitText: string | null;
}

/** Quantities of one value: a Quantity (Age, Duration, Money too), or a Range's low and high. */
export function quantitiesOf(typed: TypedValue): QuantityValue[] {
  const { value } = typed;
  if (typeof value === 'number') return [{ value, system: null, unit: null, unitText: null }];
  if (typeof value !== 'object' || value === null) return [];
  const v = value as Json;
  if (typeof v.value === 'number') {
    return [
      {
        value: v.value,
        system: str(v.system) ?? null,
        unit: str(v.code) ?? str(v.currency) ?? null,
        unitText: str(v.unit) ?? null,
      },
    ];
  }
  const out: QuantityValue[] = [];
  for (const end of [v.low, v.high]) {
    if (end && typeof end === 'object') out.push(...quantitiesOf({ type: 'Quantity', value: end }));
  }
  return out;
}

const ABSOLUTE_TYPED = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[A-Za-z0-9\-.]+)?$/;

/** A reference's target type and id when it names one ('Patient/1', 'https://x/fhir/Patient/1'). */
export function referenceTarget(reference: string): { type: string | null; id: string | null } {
  const match = ABSOLUTE_TYPED.exec(reference);
  return match ? { type: match[1], id: match[2] } : { type: null, id: null };
}

function addValue(rows: IndexRows, param: SearchParameterInfo, typed: TypedValue): void {
  const code = param.code;
  switch (param.type) {
    case 'token':
      rows.token.push(...tokensOf(code, typed));
      break;
    case 'string':
      for (const s of stringsOf(typed)) rows.string.push({ code, value: normalizeText(s), exact: s });
      break;
    case 'date':
      for (const range of datesOf(typed)) rows.date.push({ code, ...range });
      break;
    case 'number':
      for (const q of quantitiesOf(typed)) rows.number.push({ code, value: q.value });
      break;
    case 'quantity':
      for (const q of quantitiesOf(typed)) rows.quantity.push({ code, ...q });
      break;
    case 'uri':
      if (typeof typed.value === 'string' && typed.value) rows.uri.push({ code, value: typed.value });
      break;
    case 'reference':
      addReference(rows, param, typed);
      break;
    case 'composite':
      rows.composite.push(...compositesOf(param, typed));
      break;
    default:
      break; // 'special' (Location near): not indexed
  }
}

function addReference(rows: IndexRows, param: SearchParameterInfo, typed: TypedValue): void {
  const code = param.code;
  const value = typed.value;
  if (typeof value === 'string') {
    // A canonical or uri used as a reference (e.g. Questionnaire canonical).
    const target = referenceTarget(value);
    rows.reference.push({ code, targetType: target.type, targetId: target.id, reference: value });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const v = value as Json;
  const reference = str(v.reference);
  if (reference && !reference.startsWith('#')) {
    const target = referenceTarget(reference);
    const targetType = target.type ?? (param.target?.length === 1 ? param.target[0] : null);
    const targetId = target.id ?? (targetType && /^[A-Za-z0-9\-.]{1,64}$/.test(reference) ? reference : null);
    rows.reference.push({ code, targetType, targetId, reference });
  }
  const identifier = v.identifier as Json | undefined;
  if (identifier && typeof identifier === 'object') {
    rows.token.push(...tokensOf(`${code}:identifier`, { type: 'Identifier', value: identifier }));
  }
}

function compositesOf(param: SearchParameterInfo, typed: TypedValue): CompositeRow[] {
  const resourceType = (typed.path ?? '').split('.')[0];
  const components = getCompositeComponents(resourceType, param.code);
  if (!components || components.length < 2) return [];
  const [first, second] = components;
  const firsts: { system: string | null; value: string | null }[] = [];
  for (const node of evaluateTyped(first.expression, typed.value, typed.path)) {
    if (first.type === 'reference') {
      const ref = str((node.value as Json | null)?.reference);
      if (ref) firsts.push({ system: null, value: ref });
    } else {
      firsts.push(...tokensOf(param.code, node).map((t) => ({ system: t.system, value: t.value })));
    }
  }
  const rows: CompositeRow[] = [];
  for (const node of evaluateTyped(second.expression, typed.value, typed.path)) {
    const seconds: Omit<CompositeRow, 'code' | 'system1' | 'value1'>[] = [];
    const blank = { system2: null, value2: null, number2: null, low2: null, high2: null };
    if (second.type === 'token') {
      for (const t of tokensOf(param.code, node))
        seconds.push({ ...blank, system2: t.system, value2: t.value });
    } else if (second.type === 'quantity' || second.type === 'number') {
      for (const q of quantitiesOf(node)) {
        seconds.push({ ...blank, number2: q.value, system2: q.system, value2: q.unit ?? q.unitText });
      }
    } else if (second.type === 'date') {
      for (const d of datesOf(node)) seconds.push({ ...blank, low2: d.low, high2: d.high });
    } else if (second.type === 'string') {
      for (const s of stringsOf(node)) seconds.push({ ...blank, value2: normalizeText(s) });
    }
    for (const f of firsts) {
      for (const s of seconds) rows.push({ code: param.code, system1: f.system, value1: f.value, ...s });
    }
  }
  return rows;
}

/**
 * The element paths a parameter can produce index rows from (undefined: always evaluate). A
 * composite yields rows only where its base has its second component, so both must be paths.
 */
function neededPaths(param: SearchParameterInfo, resourceType: string): string[][] | undefined {
  const bases = elementPaths(param.expression, resourceType);
  if (!bases || param.type !== 'composite') {
    return bases?.map((path) => narrowedNames(resourceType, path));
  }
  const second = getCompositeComponents(resourceType, param.code)?.[1];
  const tails = second && elementPaths(second.expression, null);
  return (
    tails &&
    bases.flatMap((base) =>
      tails.map((tail) =>
        narrowedNames(resourceType, { names: [...base.names, ...tail.names], ofType: tail.ofType }),
      ),
    )
  );
}

/** Per type, the parameters to index, each with the element paths it needs. */
const indexedParams = new Map<string, { param: SearchParameterInfo; needs: string[][] | undefined }[]>();

function indexedParamsOf(resourceType: string) {
  let params = indexedParams.get(resourceType);
  if (!params) {
    params = getSearchParameters(resourceType)
      .filter((param) => !COLUMN_PARAMS.has(param.code))
      .map((param) => ({ param, needs: neededPaths(param, resourceType) }));
    indexedParams.set(resourceType, params);
  }
  return params;
}

/**
 * Every index row of a resource. A parameter whose expression reads only element paths the
 * resource lacks is skipped without running FHIRPath (`all` runs every one: the equivalence test).
 */
export function extractIndexRows(resource: Resource, options: { all?: boolean } = {}): IndexRows {
  const rows = emptyIndexRows();
  for (const { param, needs } of indexedParamsOf(resource.resourceType)) {
    if (needs && !options.all && !reachesAny(resource, needs)) {
      continue;
    }
    for (const typed of evaluateTyped(param.expression, resource)) {
      addValue(rows, param, typed);
    }
  }
  return rows;
}
