// The session on every GraphQL request (SPEC §4): the platform client's access token as a bearer
// header; on a 401 one renewal through the platform client, shared by every request that got a 401
// meanwhile (never two at once), then a single retry; a second 401 ends the session.
import { ServerError } from '@apollo/client/errors';
import { ApolloLink } from '@apollo/client/link';
import { catchError, defer, from, mergeMap, throwError } from 'rxjs';
import type { Observable } from 'rxjs';
import type { GraphqlSession } from './session';

function isUnauthorized(error: unknown): boolean {
  return ServerError.is(error) && error.statusCode === 401;
}

export class AuthLink extends ApolloLink {
  private readonly session: GraphqlSession;
  private renewal: Promise<void> | undefined;
  /** The token each operation was last sent with, to tell the session which one got the 401. */
  private readonly lastTokens = new WeakMap<ApolloLink.Operation, string | undefined>();

  constructor(session: GraphqlSession) {
    super();
    this.session = session;
  }

  override request(
    operation: ApolloLink.Operation,
    forward: ApolloLink.ForwardFunction,
  ): Observable<ApolloLink.Result> {
    return from(this.session.refreshIfExpired()).pipe(
      mergeMap(() => this.sendWithToken(operation, forward)),
      catchError((error: unknown) => this.renewAndRetry(error, operation, forward)),
    );
  }

  /** Sends with the token current when the request goes out. */
  private sendWithToken(
    operation: ApolloLink.Operation,
    forward: ApolloLink.ForwardFunction,
  ): Observable<ApolloLink.Result> {
    return defer(() => {
      const token = this.session.getAccessToken();
      this.lastTokens.set(operation, token);
      operation.setContext(({ headers }: { headers?: Record<string, string> }) => {
        const next: Record<string, string> = { ...headers };
        if (token) {
          next.authorization = `Bearer ${token}`;
        } else {
          delete next.authorization;
        }
        return { headers: next };
      });
      return forward(operation);
    });
  }

  private renewAndRetry(
    error: unknown,
    operation: ApolloLink.Operation,
    forward: ApolloLink.ForwardFunction,
  ): Observable<ApolloLink.Result> {
    if (!isUnauthorized(error)) {
      return throwError(() => error);
    }
    return from(this.renewOnce(this.lastTokens.get(operation))).pipe(
      mergeMap(() => this.sendWithToken(operation, forward)),
      catchError((retryError: unknown) =>
        throwError(() =>
          isUnauthorized(retryError) ? this.session.unauthenticatedAfterRetry() : retryError,
        ),
      ),
    );
  }

  /** One renewal in flight at a time: later 401s wait for it instead of starting their own. */
  private renewOnce(usedToken: string | undefined): Promise<void> {
    if (!this.renewal) {
      this.renewal = this.session.handleUnauthorized(usedToken).finally(() => {
        this.renewal = undefined;
      });
    }
    return this.renewal;
  }
}
