// A resource read through GraphQL as the FHIR JSON it stands for: GraphQL answers null for every
// absent field and Apollo adds __typename, neither of which a FHIR resource carries.
export function fromGraphql<T>(value: unknown): T {
  return strip(value) as T;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(strip);
  }
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (field !== null && field !== undefined && key !== '__typename') {
        result[key] = strip(field);
      }
    }
    return result;
  }
  return value;
}
