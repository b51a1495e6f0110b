// GraphQL errors as OperationOutcome issues. A request that cannot run (bad JSON shape,
// syntax, validation, variables, limits) is a 400 OperationOutcome with one issue per error; an
// error while resolving a field stays a GraphQL error in a 200 response (the rest of the data is
// still useful) and carries its OperationOutcome in `extensions.outcome`.
import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import { getStatus, normalizeError, OperationOutcomeError } from '../../fhir';

/** Where an error is: the field path when it has one, else its line:column in the query. */
function errorExpression(error: GraphQLError): string[] | undefined {
  if (error.path && error.path.length > 0) {
    return [error.path.join('.')];
  }
  const locations = error.locations?.map((l) => `line ${l.line}, column ${l.column}`);
  return locations && locations.length > 0 ? locations : undefined;
}

function issueOf(error: GraphQLError): OperationOutcomeIssue {
  const issue: OperationOutcomeIssue = {
    severity: 'error',
    code: 'invalid',
    details: { text: error.message },
  };
  const expression = errorExpression(error);
  if (expression) {
    issue.expression = expression;
  }
  return issue;
}

/** A 400 OperationOutcome listing request-level GraphQL errors (syntax, validation, variables). */
export function requestErrorsOutcome(errors: readonly GraphQLError[], prefix = ''): OperationOutcomeError {
  const outcome: OperationOutcome = {
    resourceType: 'OperationOutcome',
    issue: errors.map((error) => {
      const issue = issueOf(error);
      issue.details = { text: prefix + error.message };
      return issue;
    }),
  };
  return new OperationOutcomeError(outcome);
}

/**
 * A field error for the response: its OperationOutcome (a 404 for what is missing or hidden, a 403
 * for a refused write…) in extensions. Server errors keep their detail out of the response.
 */
export function formatFieldError(
  error: GraphQLError,
  logServerError: (err: unknown) => void,
): GraphQLFormattedError {
  const original = error.originalError;
  const outcome =
    original === undefined || original === null
      ? ({ resourceType: 'OperationOutcome', issue: [issueOf(error)] } as OperationOutcome)
      : normalizeError(original);
  const status = getStatus(outcome);
  let message = error.message;
  let safeOutcome = outcome;
  if (status >= 500) {
    logServerError(original ?? error);
    message = 'Internal server error';
    safeOutcome = {
      ...outcome,
      issue: (outcome.issue ?? []).map(({ diagnostics: _hidden, ...issue }) => issue),
    };
  }
  const formatted: GraphQLFormattedError = {
    message,
    ...(error.locations ? { locations: error.locations } : {}),
    ...(error.path ? { path: error.path } : {}),
    extensions: { outcome: safeOutcome, status },
  };
  return formatted;
}
