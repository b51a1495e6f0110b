// A refusal that tells the caller when to come back: the error handler (src/server/fhir/errors.ts)
// sends `retryAfterSeconds` as the Retry-After header (RFC 9110 §10.2.3), so clients wait instead of
// retrying at once (the platform client returns a 429 at once when the wait is long).
import type { OperationOutcome } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../fhir/outcomes';

export class RetryAfterError extends OperationOutcomeError {
  constructor(
    outcome: OperationOutcome,
    readonly retryAfterSeconds: number,
  ) {
    super(outcome);
    this.name = 'RetryAfterError';
  }
}
