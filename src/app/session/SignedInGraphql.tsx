// The ApolloProvider of the signed-in screens, with the live connection screens watch to refetch after
// the subscription socket reconnects. It is a chunk of its own (see GraphqlBoundary), so
// Apollo and the GraphQL runtime stay off the landing and sign-in pages.
import { ApolloProvider } from '@apollo/client/react';
import type { ReactNode } from 'react';
import { LiveConnectionContext } from '../../graphql/live-connection';
import { sharedGraphql } from '../../graphql/shared-client';
import { useBloomClient } from './BloomClientContext';

export default function SignedInGraphql({ children }: { children: ReactNode }) {
  const { apollo, live } = sharedGraphql(useBloomClient());
  return (
    <ApolloProvider client={apollo}>
      <LiveConnectionContext.Provider value={live}>{children}</LiveConnectionContext.Provider>
    </ApolloProvider>
  );
}
