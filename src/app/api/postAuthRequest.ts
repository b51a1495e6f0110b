// One POST to the server's auth endpoints (SPEC §7 "Authentication": auth/method, auth/newuser).
// Errors come back as FHIR OperationOutcomes (SPEC §8); a network failure gets a clear message of its own.
// The platform client (src/client) takes this over once it exists; the sign-in and register screens only
// need "the JSON answer, or an outcome to show".
import type { OperationOutcome } from '@medplum/fhirtypes';
import { isOperationOutcome } from '../../fhir/outcomes';

export const unreachableMessage = 'Could not reach the server. Check your connection and try again.';

/** A failed auth request: the server's OperationOutcome when it sent one, else a synthesised one. */
export class AuthRequestError extends Error {
  readonly outcome: OperationOutcome;

  constructor(outcome: OperationOutcome, message: string) {
    super(message);
    this.name = 'AuthRequestError';
    this.outcome = outcome;
  }
}

function plainOutcome(text: string): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code: 'exception', details: { text } }],
  };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/**
 * POSTs `body` as JSON to `{baseUrl}{path}` and resolves with the JSON answer of a 2xx response.
 * Rejects with an AuthRequestError carrying the server's OperationOutcome (or one describing the failure).
 */
export async function postAuthRequest(
  baseUrl: string,
  path: string,
  body: Record<string, unknown>,
  fetchFn: typeof fetch = fetch,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetchFn(new URL(path, baseUrl).toString(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/fhir+json, application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new AuthRequestError(plainOutcome(unreachableMessage), unreachableMessage);
  }
  const json = await readJson(response);
  if (!response.ok) {
    if (isOperationOutcome(json) && (json.issue?.length ?? 0) > 0) {
      throw new AuthRequestError(json, 'The server rejected the request');
    }
    const text = `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    throw new AuthRequestError(plainOutcome(text), text);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    const text = 'The server sent an answer that is not a JSON object';
    throw new AuthRequestError(plainOutcome(text), text);
  }
  return json as Record<string, unknown>;
}
