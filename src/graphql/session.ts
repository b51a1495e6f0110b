// What the Apollo link needs from the platform client (SPEC §4): the access token for each request and
// the session's renewal rules. BloomClient has these methods; tests pass a fake.

export interface GraphqlSession {
  getAccessToken(): string | undefined;
  /** Renews the token when it is about to expire, or waits for a renewal in flight. */
  refreshIfExpired(): Promise<void>;
  /** After a 401 to a request sent with `usedAccessToken`: renew (or reject with 'Unauthenticated'). */
  handleUnauthorized(usedAccessToken: string | undefined): Promise<void>;
  /** A second 401 right after a renewal: the error that ends the session. */
  unauthenticatedAfterRetry(): Error;
}
