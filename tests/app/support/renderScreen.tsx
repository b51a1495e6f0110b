// Renders one patient screen signed in as Maria, with Apollo's MockedProvider answering its one
// GraphQL operation, on an in-memory router (the route pattern gives the screen its params); REST writes
// go to the fake API it returns, and Apollo's cache follows them as the app's does (resource-writes.ts).
// The documents the screen sends are recorded (./sentDocuments.ts).
import { ApolloLink } from '@apollo/client';
import { MockLink } from '@apollo/client/testing';
import { useApolloClient } from '@apollo/client/react';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, type RenderResult } from '@testing-library/react';
import { useEffect, type ReactElement, type ReactNode } from 'react';
import type { BloomClient } from '../../../src/client';
import { followResourceWrites } from '../../../src/graphql/resource-writes';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { BloomClientProvider } from '../../../src/app/session/BloomClientContext';
import { createAppClient } from '../../../src/app/session/createAppClient';
import { installFakeApi, testBaseUrl, maria, storeMariaLogin, type FakeApi } from './fakeApi';
import { recordingLink } from './sentDocuments';

export type ScreenMock = MockLink.MockedResponse;

/** The app's one cache policy on the mocked Apollo Client: a client write evicts what it changed. */
function FollowWrites({ client, children }: { client: BloomClient; children: ReactNode }) {
  const apollo = useApolloClient();
  useEffect(() => followResourceWrites(client, apollo), [client, apollo]);
  return children;
}

export function renderScreen(
  element: ReactElement,
  mocks: ScreenMock[],
  {
    path = '/',
    pattern = '/',
    link,
  }: {
    path?: string;
    pattern?: string;
    /** A link before the mocks (to watch which operations reach the network). */
    link?: ApolloLink;
  } = {},
): RenderResult & { router: ReturnType<typeof createMemoryRouter>; api: FakeApi } {
  const api = installFakeApi();
  storeMariaLogin();
  api.always('GET auth/me', 200, {
    profile: maria,
    project: { resourceType: 'Project', id: 'clinic', name: 'Bloom Clinic' },
    membership: { resourceType: 'ProjectMembership', id: 'm1', profile: { reference: 'Patient/maria-1' } },
  });
  const client = createAppClient({ baseUrl: testBaseUrl }, () => undefined);
  const router = createMemoryRouter(
    [
      { path: pattern, element },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <BloomClientProvider client={client}>
      <MockedProvider link={ApolloLink.from([recordingLink(), ...(link ? [link] : []), new MockLink(mocks)])}>
        <FollowWrites client={client}>
          <RouterProvider router={router} />
        </FollowWrites>
      </MockedProvider>
    </BloomClientProvider>,
  );
  return { ...result, router, api };
}
