// The app's ApolloProvider: one Apollo Client per platform client, over its session and FHIR base URL,
// so screens call useQuery with the typed documents of ./generated.
import { ApolloProvider } from '@apollo/client/react';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { createGraphqlClient } from './apollo-client';
import { LiveConnection, LiveConnectionContext } from './live-connection';
import type { GraphqlSession } from './session';
import { clearCacheOnProfileChange } from './session-reset';
import type { ProfileChangeSource } from './session-reset';

export interface GraphqlProviderProps {
  /** The platform client (BloomClient). */
  readonly client: GraphqlSession & ProfileChangeSource & { fhirUrl(): string };
  /** The transport (default: the global fetch). */
  readonly fetch?: typeof fetch;
  readonly children?: ReactNode;
}

export function GraphqlProvider({ client, fetch, children }: GraphqlProviderProps) {
  const [live] = useState(() => new LiveConnection());
  const [apollo] = useState(() =>
    createGraphqlClient({ fhirBaseUrl: client.fhirUrl(), session: client, fetch, live }),
  );
  useEffect(() => clearCacheOnProfileChange(client, apollo), [client, apollo]);
  return (
    <ApolloProvider client={apollo}>
      <LiveConnectionContext.Provider value={live}>{children}</LiveConnectionContext.Provider>
    </ApolloProvider>
  );
}
