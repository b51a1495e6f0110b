// The media types the API reads and writes.
export const FHIR_JSON = 'application/fhir+json; charset=utf-8';
export const JSON_PATCH = 'application/json-patch+json';
/** POST {type}/_search, oauth2/token and FHIRcast subscriptions take their parameters as a form. */
export const FORM_URLENCODED = 'application/x-www-form-urlencoded';
/** keyvalue/v1 values. */
export const TEXT_PLAIN = 'text/plain';

/**
 * JSON under any of the names Medplum's server parses as JSON: its SDK sends application/fhir+json
 * on every JSON body (auth, oauth2, admin, ...), SCIM clients send application/scim+json.
 */
export const JSON_MEDIA_TYPES = [
  'application/json',
  'application/fhir+json',
  'application/scim+json',
] as const;

/** Bodies of these types are parsed as JSON on every route (request-bodies.ts). */
export const JSON_BODY_TYPES = [...JSON_MEDIA_TYPES, JSON_PATCH] as const;

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const value = contentType?.split(';')[0].trim().toLowerCase();
  return value ? value : undefined;
}
