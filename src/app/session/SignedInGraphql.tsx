// The ApolloProvider of the signed-in screens. It is a chunk of its own (see GraphqlBoundary), so
// Apollo and the GraphQL runtime stay off the landing and sign-in pages (issue #7 budgets).
import { ApolloProvider } from '@apollo/client/react';
import type { ReactNode } from 'react';
import { sharedGraphqlClient } from '../../graphql/shared-client';
import { useBloomClient } from './BloomClientContext';

export default function SignedInGraphql({ children }: { children: ReactNode }) {
  const client = useBloomClient();
  return <ApolloProvider client={sharedGraphqlClient(client)}>{children}</ApolloProvider>;
}
