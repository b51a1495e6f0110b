// A resource's field as the text a cell or a CSV column shows. Choice elements are found by their
// prefix ('effective' reads effectiveDateTime or effectivePeriod); FHIR data types read the way a
// person would write them (a Quantity as '7.2 mmol/L', a Reference by its display).
type Json = unknown;

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: Json): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '';
}

function joined(parts: Json[], separator = ' '): string {
  return parts.map(text).filter(Boolean).join(separator);
}

/** One FHIR value (primitive or data type) as text. */
export function formatValue(value: Json): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(formatValue).filter(Boolean).join(', ');
  if (!isRecord(value)) return text(value);
  if (typeof value.display === 'string' && value.display) return value.display;
  if (typeof value.text === 'string' && value.text) return value.text;
  if (Array.isArray(value.coding)) return formatValue(value.coding);
  if (typeof value.reference === 'string') return value.reference;
  if ('value' in value && ('unit' in value || 'code' in value || 'comparator' in value)) {
    return joined([value.comparator, value.value, value.unit ?? value.code]);
  }
  if ('family' in value || 'given' in value) {
    return joined([
      ...(Array.isArray(value.prefix) ? value.prefix : []),
      ...(Array.isArray(value.given) ? value.given : []),
      value.family,
    ]);
  }
  if ('start' in value || 'end' in value) return joined([value.start, value.end], ' – ');
  if ('line' in value || 'city' in value) {
    return joined(
      [
        ...(Array.isArray(value.line) ? value.line : []),
        value.city,
        value.state,
        value.postalCode,
        value.country,
      ],
      ', ',
    );
  }
  if (typeof value.code === 'string') return value.code;
  // An AccessPolicy's resource entry (or any element naming a type) reads as that type.
  if (typeof value.resourceType === 'string') return value.resourceType;
  if (typeof value.value === 'string' || typeof value.value === 'number') return String(value.value);
  if (typeof value.contentString === 'string') return value.contentString;
  return JSON.stringify(value);
}

/** The raw value of a field on a resource: 'id', '_lastUpdated' (meta.lastUpdated), an element, or a
 * choice element under any of its type suffixes. */
export function fieldRawValue(resource: Readonly<Record<string, Json>>, field: string): Json {
  if (field === '_lastUpdated') return isRecord(resource.meta) ? resource.meta.lastUpdated : undefined;
  if (field in resource) return resource[field];
  for (const key of Object.keys(resource)) {
    if (key.startsWith(field) && /^[A-Z]/.test(key.slice(field.length))) return resource[key];
  }
  return undefined;
}

export function fieldText(resource: Readonly<Record<string, Json>>, field: string): string {
  return formatValue(fieldRawValue(resource, field));
}
