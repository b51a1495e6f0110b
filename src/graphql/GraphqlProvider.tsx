// An ApolloProvider over a platform client: one Apollo Client sending through the client's fetch, its
// cache emptied when the profile changes and following the client's REST writes, so screens call
// useQuery with the typed documents of ./generated.
import { ApolloProvider } from '@apollo/client/react';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { createGraphqlClient } from './apollo-client';
import { LiveConnection, LiveConnectionContext } from './live-connection';
import { followResourceWrites } from './resource-writes';
import type { GraphqlSession } from './session';
import { clearCacheOnProfileChange } from './session-reset';
import type { ProfileChangeSource } from './session-reset';

export interface GraphqlProviderProps {
  /** The platform client (BloomClient). */
  readonly client: GraphqlSession & ProfileChangeSource & { fhirUrl(): string };
  readonly children?: ReactNode;
}

export function GraphqlProvider({ client, children }: GraphqlProviderProps) {
  const [live] = useState(() => new LiveConnection());
  const [apollo] = useState(() =>
    createGraphqlClient({ fhirBaseUrl: client.fhirUrl(), session: client, live }),
  );
  useEffect(() => clearCacheOnProfileChange(client, apollo), [client, apollo]);
  useEffect(() => followResourceWrites(client, apollo), [client, apollo]);
  return (
    <ApolloProvider client={apollo}>
      <LiveConnectionContext.Provider value={live}>{children}</LiveConnectionContext.Provider>
    </ApolloProvider>
  );
}
