// The media types the FHIR API reads and writes.
export const FHIR_JSON = 'application/fhir+json; charset=utf-8';
export const JSON_PATCH = 'application/json-patch+json';
/** POST {type}/_search takes its parameters as a form. */
export const FORM_URLENCODED = 'application/x-www-form-urlencoded';

/** Bodies of these types are parsed as JSON; any other body is a 415. */
export const JSON_BODY_TYPES = ['application/json', 'application/fhir+json', JSON_PATCH] as const;

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const value = contentType?.split(';')[0].trim().toLowerCase();
  return value ? value : undefined;
}
