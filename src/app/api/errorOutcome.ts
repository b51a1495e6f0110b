// Turns what a platform client call threw into an OperationOutcome to show (SPEC §8): the server's outcome
// when it sent one; a network failure gets a message of its own; any other error its own message
// (e.g. the client's 'Failed to fetch tokens').
import type { OperationOutcome } from '@medplum/fhirtypes';
import { isOperationOutcome, OperationOutcomeError } from '../../fhir/outcomes';
import { shellStrings } from '../components/strings';
import { translate } from '../i18n/i18n';

/** The English text (tests compare with it); the patient reads it in her language. */
export const unreachableMessage = shellStrings.unreachable.message;

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
  if (err instanceof TypeError) return plainOutcome(translate(shellStrings.unreachable));
  return plainOutcome(err instanceof Error ? err.message : String(err));
}
