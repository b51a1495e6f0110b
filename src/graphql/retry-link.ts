// Retries of SPEC §9 ("3 attempts, 200 ms apart, for status 500 or more") for GraphQL requests, also
// applied to network failures. Mutations are not retried: a lost answer may hide a write that happened,
// and $graphql has no Idempotency-Key (the platform client retries a POST only with one, SPEC §4).
import { ServerError, ServerParseError } from '@apollo/client/errors';
import type { ErrorLike } from '@apollo/client';
import type { ApolloLink } from '@apollo/client/link';
import { RetryLink } from '@apollo/client/link/retry';
import { OperationTypeNode } from 'graphql';

export const GRAPHQL_MAX_ATTEMPTS = 3;
export const GRAPHQL_RETRY_DELAY_MS = 200;

/**
 * A 5xx answer, or no answer at all (fetch rejected). 4xx answers, unreadable bodies and aborted
 * requests are final; GraphQL errors arrive as results, not errors, and are never retried.
 */
export function isRetryableError(error: ErrorLike): boolean {
  if (ServerError.is(error)) {
    return error.statusCode >= 500;
  }
  return !ServerParseError.is(error) && error.name !== 'AbortError';
}

function isMutation(operation: ApolloLink.Operation): boolean {
  return operation.operationType === OperationTypeNode.MUTATION;
}

export function createRetryLink(): RetryLink {
  return new RetryLink({
    delay: () => GRAPHQL_RETRY_DELAY_MS,
    attempts: (attempt, operation, error) =>
      attempt < GRAPHQL_MAX_ATTEMPTS && !isMutation(operation) && isRetryableError(error),
  });
}
