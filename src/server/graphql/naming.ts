// GraphQL names for FHIR things, as Medplum names them (so Medplum queries run unchanged): a nested
// element type 'Patient.contact' is the object type 'PatientContact'; a search parameter code
// 'based-on' is the argument 'based_on' (GraphQL names have no '-').

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** 'Patient' → 'Patient', 'Patient.contact' → 'PatientContact', 'Bundle.entry.request' → 'BundleEntryRequest'. */
export function graphQLTypeName(fhirType: string): string {
  const parts = fhirType.split('.');
  return parts.length === 1 ? fhirType : parts.map(capitalize).join('');
}

/** A choice element's property for one of its types: 'value[x]' + 'Quantity' → 'valueQuantity'. */
export function choicePropertyName(elementName: string, typeCode: string): string {
  return elementName.replace('[x]', capitalize(typeCode));
}

/** 'based-on' → 'based_on'; undefined when the code cannot be a GraphQL name at all. */
export function searchParamToArgName(code: string): string | undefined {
  const name = code.replaceAll('-', '_');
  return GRAPHQL_NAME.test(name) && !name.startsWith('__') ? name : undefined;
}

/** The reverse of searchParamToArgName: 'based_on' → 'based-on'; '_id' and '_lastUpdated' stay. */
export function argNameToSearchParam(name: string): string {
  return name.startsWith('_') ? name : name.replaceAll('_', '-');
}
