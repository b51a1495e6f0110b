// Subscription operations go over graphql-ws; everything else over HTTP. The socket link
// is imported on the first subscription, so graphql-ws is its own chunk of the app build.
import { ApolloLink } from '@apollo/client/link';
import { from, mergeMap } from 'rxjs';
import type { Observable } from 'rxjs';
import type { LiveConnection } from './live-connection';
import type { GraphqlSession } from './session';

export interface LazyWsLinkOptions {
  fhirBaseUrl: string;
  session: GraphqlSession;
  live: LiveConnection;
  webSocketImpl?: unknown;
}

/** ws(s)://host/ws/graphql beside a FHIR base of http(s)://host/fhir/R4/ (a path prefix kept). */
export function graphqlWsUrl(fhirBaseUrl: string): string {
  const base = fhirBaseUrl.endsWith('/') ? fhirBaseUrl : `${fhirBaseUrl}/`;
  const url = new URL('../../ws/graphql', base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

export function isSubscriptionOperation(operation: ApolloLink.Operation): boolean {
  return operation.operationType === 'subscription';
}

export class LazyWsLink extends ApolloLink {
  private link: Promise<ApolloLink> | undefined;

  constructor(private readonly options: LazyWsLinkOptions) {
    super();
  }

  private load(): Promise<ApolloLink> {
    this.link ??= import('./ws-link').then(({ createWsLink }) =>
      createWsLink({ ...this.options, url: graphqlWsUrl(this.options.fhirBaseUrl) }),
    );
    return this.link;
  }

  override request(
    operation: ApolloLink.Operation,
    forward: ApolloLink.ForwardFunction,
  ): Observable<ApolloLink.Result> {
    return from(this.load()).pipe(mergeMap((link) => link.request(operation, forward)));
  }
}
