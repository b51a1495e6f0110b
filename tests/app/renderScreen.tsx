// Renders one patient screen signed in as Maria, with Apollo's MockedProvider answering its one
// GraphQL operation, on an in-memory router (the route pattern gives the screen its params); REST writes
// go to the fake API it returns. The documents the screen sends are recorded (./sentDocuments.ts).
import { ApolloLink } from '@apollo/client';
import { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { BloomClientProvider } from '../../src/app/session/BloomClientContext';
import { createAppClient } from '../../src/app/session/createAppClient';
import { installFakeApi, testBaseUrl, maria, storeMariaLogin, type FakeApi } from './fakeApi';
import { recordingLink } from './sentDocuments';

export type ScreenMock = MockLink.MockedResponse;

export function renderScreen(
  element: ReactElement,
  mocks: ScreenMock[],
  { path = '/', pattern = '/' }: { path?: string; pattern?: string } = {},
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
      <MockedProvider link={ApolloLink.from([recordingLink(), new MockLink(mocks)])}>
        <RouterProvider router={router} />
      </MockedProvider>
    </BloomClientProvider>,
  );
  return { ...result, router, api };
}
