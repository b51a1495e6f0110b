// GET Subscription/{id}/$get-ws-binding-token (SPEC §7 Subscription calls): the token that binds a
// Subscription on the socket. SPEC §8: 'Failed to get token' and 'Failed to get URL from
// $get-ws-binding-token' when the answer lacks them (the URL is required as Medplum requires it,
// though the socket is the manager's own, as in Medplum).
import type { Parameters } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir/outcomes';
import type { FhirClient } from '../fhir-client';

export const FAILED_TO_GET_TOKEN = 'Failed to get token';
export const FAILED_TO_GET_URL = 'Failed to get URL from $get-ws-binding-token';

export interface BindingToken {
  token: string;
  websocketUrl: string;
  /** When the server stops accepting the token for a bind (undefined when it does not say). */
  expiration: string | undefined;
}

export async function getBindingToken(client: FhirClient, subscriptionId: string): Promise<BindingToken> {
  // A token is good for one bind: never from the cache.
  const parameters = await client.get<Parameters>(
    client.fhirUrl('Subscription', subscriptionId, '$get-ws-binding-token'),
    { cache: 'no-cache' },
  );
  const find = (name: string) => parameters?.parameter?.find((p) => p.name === name);
  const token = find('token')?.valueString;
  if (!token) throw new OperationOutcomeError(badRequest(FAILED_TO_GET_TOKEN));
  const websocketUrl = find('websocket-url')?.valueUrl;
  if (!websocketUrl) throw new OperationOutcomeError(badRequest(FAILED_TO_GET_URL));
  return { token, websocketUrl, expiration: find('expiration')?.valueDateTime };
}
