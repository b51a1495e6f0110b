// OperationOutcomes as errors with their text (SPEC §8: "An error message is the issues joined with
// '; '"). The server answers a request that cannot run with a 4xx OperationOutcome, which becomes an
// OperationOutcomeError; a field error stays a GraphQL error (the rest of the data is still useful),
// its message taken from the OperationOutcome in extensions.outcome.
import { ServerError } from '@apollo/client/errors';
import { ApolloLink } from '@apollo/client/link';
import type { GraphQLFormattedError } from 'graphql';
import { catchError, map, throwError } from 'rxjs';
import type { Observable } from 'rxjs';
import { isOperationOutcome, operationOutcomeToString, OperationOutcomeError } from '../fhir/outcomes';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The error the app sees for a failed HTTP answer: its OperationOutcome when the body is one. */
export function outcomeErrorOf(error: unknown): unknown {
  if (ServerError.is(error)) {
    const body = parseJson(error.bodyText);
    if (isOperationOutcome(body)) {
      return new OperationOutcomeError(body, error);
    }
  }
  return error;
}

function withOutcomeMessage(error: GraphQLFormattedError): GraphQLFormattedError {
  const outcome = error.extensions?.outcome;
  return isOperationOutcome(outcome) ? { ...error, message: operationOutcomeToString(outcome) } : error;
}

export class OutcomeLink extends ApolloLink {
  override request(
    operation: ApolloLink.Operation,
    forward: ApolloLink.ForwardFunction,
  ): Observable<ApolloLink.Result> {
    return forward(operation).pipe(
      map((result) =>
        'errors' in result && result.errors
          ? { ...result, errors: result.errors.map(withOutcomeMessage) }
          : result,
      ),
      catchError((error: unknown) => throwError(() => outcomeErrorOf(error))),
    );
  }
}
