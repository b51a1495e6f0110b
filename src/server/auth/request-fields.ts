// Reading the JSON bodies of the /auth endpoints: every field checked for type and size, each
// failure a 400 whose expression is the field's name, so the app shows it under that field (SPEC §5).
import { badRequest, OperationOutcomeError } from '../../fhir';

export type Fields = Record<string, unknown>;

/** Longest accepted text field (names, ids, codes); longer values are refused, not cut. */
export const MAX_FIELD_LENGTH = 256;
/** Longest password accepted at sign-in (new passwords are limited to 72 bytes elsewhere). */
const MAX_LOGIN_PASSWORD = 1024;
// Deliberately simple: one @, something before it, a dotted domain after it, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function fieldError(message: string, field: string): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(message, field));
}

export function readFields(body: unknown): Fields {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OperationOutcomeError(badRequest('The request body must be a JSON object'));
  }
  return body as Fields;
}

export function optionalString(
  fields: Fields,
  name: string,
  maxLength = MAX_FIELD_LENGTH,
): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  if (typeof value !== 'string') {
    throw fieldError(`${name} must be a string`, name);
  }
  if (value.length > maxLength) {
    throw fieldError(`${name} must be at most ${maxLength} characters`, name);
  }
  return value;
}

export function requiredString(
  fields: Fields,
  name: string,
  label: string,
  maxLength = MAX_FIELD_LENGTH,
): string {
  const value = optionalString(fields, name, maxLength);
  if (value === undefined || value.trim() === '') {
    throw fieldError(`${label} is required`, name);
  }
  return value.trim();
}

export function requiredEmail(fields: Fields, name = 'email'): string {
  const email = requiredString(fields, name, 'Email', 320);
  if (!EMAIL.test(email)) {
    throw fieldError('Valid email address is required', name);
  }
  return email;
}

export function requiredPassword(fields: Fields, name = 'password'): string {
  const value = optionalString(fields, name, MAX_LOGIN_PASSWORD);
  if (value === undefined) {
    throw fieldError('Password is required', name);
  }
  return value;
}

export function optionalBoolean(fields: Fields, name: string): boolean | undefined {
  const value = fields[name];
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'boolean') {
    throw fieldError(`${name} must be true or false`, name);
  }
  return value;
}

/** PKCE at sign-in: a challenge needs its method, and only S256 is accepted (`plain` is refused). */
export function readCodeChallenge(fields: Fields): { codeChallenge?: string; codeChallengeMethod?: 'S256' } {
  const codeChallenge = optionalString(fields, 'codeChallenge', 128);
  const method = optionalString(fields, 'codeChallengeMethod', 16);
  if (!codeChallenge && !method) {
    return {};
  }
  if (!codeChallenge) {
    throw fieldError('codeChallenge is required when codeChallengeMethod is given', 'codeChallenge');
  }
  if (method !== 'S256') {
    throw fieldError("codeChallengeMethod must be 'S256'", 'codeChallengeMethod');
  }
  return { codeChallenge, codeChallengeMethod: 'S256' };
}
