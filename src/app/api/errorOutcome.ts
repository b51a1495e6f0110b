// Turns what a platform client call threw into an OperationOutcome to show (SPEC §8): the server's outcome
// when it sent one; a network failure gets a message of its own; any other error its own message
// (e.g. the client's 'Failed to fetch tokens').
import type { OperationOutcome } from '@medplum/fhirtypes';
import { isOperationOutcome, OperationOutcomeError } from '../../fhir/outcomes';

export const unreachableMessage = 'Could not reach the server. Check your connection and try again.';

function plainOutcome(text: string): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code: 'exception', details: { text } }],
  };
}

export function errorOutcome(err: unknown): OperationOutcome {
  if (err instanceof OperationOutcomeError) return err.outcome;
  if (isOperationOutcome(err)) return err;
  // fetch rejects with a TypeError when the server cannot be reached.
  if (err instanceof TypeError) return plainOutcome(unreachableMessage);
  return plainOutcome(err instanceof Error ? err.message : String(err));
}
