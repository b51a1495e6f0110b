// The app's ApolloProvider over a real BloomClient (a scripted fetch under it): a screen's useQuery with
// a typed document goes through the client's fetch with the client's token; the cache is emptied when
// the signed-in profile changes (another person must not see the previous answers) and kept across
// token renewals.
import type { ApolloClient } from '@apollo/client';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { BloomClient } from '../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import { AccountProfileDocument, GraphqlProvider } from '../../src/graphql';

/** A signed-in BloomClient whose $graphql answers come from `answers`, recording each Authorization. */
function platformClient(answers: Response[]) {
  const authorizations: (string | null)[] = [];
  const fetch = async (input: string, init?: RequestInit): Promise<Response> => {
    if (input.endsWith('auth/me')) {
      return new Response(JSON.stringify({ profile: { resourceType: 'Patient', id: 'someone' } }), {
        headers: { 'content-type': 'application/json' },
      });
    }
    authorizations.push(new Headers(init?.headers).get('authorization'));
    return answers.shift() as Response;
  };
  const client = new BloomClient({
    baseUrl: 'https://api.test/',
    fetch,
    storage: new PrefixedStorage(new MemoryStorage()),
  });
  const signInAs = (profile: string | undefined, token: string): void => {
    if (profile) {
      void client.setActiveLogin({ accessToken: token, profile: { reference: profile } });
    } else {
      client.clear();
    }
  };
  signInAs('Patient/maria', 'token-maria');
  return { client, authorizations, signInAs };
}

function patientsAnswer(family: string): Response {
  const data = {
    Patient: {
      __typename: 'Patient',
      resourceType: 'Patient',
      id: family.toLowerCase(),
      name: [{ __typename: 'HumanName', use: null, text: null, given: ['A'], family }],
      gender: null,
      birthDate: null,
      telecom: null,
      address: null,
    },
  };
  return new Response(JSON.stringify({ data }), { headers: { 'content-type': 'application/json' } });
}

function PatientNames() {
  const { data, loading, error } = useQuery(AccountProfileDocument, { variables: { id: 'signed-in' } });
  if (loading) return <p>Loading</p>;
  if (error) return <p role="alert">{error.message}</p>;
  return (
    <ul>
      {(data?.Patient?.name ?? []).map((name) => (
        <li key={name?.family}>{name?.family}</li>
      ))}
    </ul>
  );
}

test('useQuery with a typed document through GraphqlProvider sends the session token; a new profile empties the cache', async () => {
  const { client, authorizations, signInAs } = platformClient([
    patientsAnswer('Garcia'),
    patientsAnswer('Okafor'),
  ]);

  const apollo: { current?: ApolloClient } = {};
  function ApolloProbe() {
    const found = useApolloClient();
    useEffect(() => {
      apollo.current = found;
    }, [found]);
    return null;
  }
  render(
    <GraphqlProvider client={client}>
      <ApolloProbe />
      <PatientNames />
    </GraphqlProvider>,
  );
  expect(await screen.findByText('Garcia')).toBeInTheDocument();
  expect(authorizations).toEqual(['Bearer token-maria']);

  // A token renewal for the same person keeps the answer: no new request.
  await act(async () => signInAs('Patient/maria', 'token-maria-2'));
  expect(screen.getByText('Garcia')).toBeInTheDocument();
  expect(authorizations).toHaveLength(1);

  // Another person signs in: the cache is cleared, the query runs again with the new token.
  await act(async () => signInAs('Patient/aisha', 'token-aisha'));
  expect(await screen.findByText('Okafor')).toBeInTheDocument();
  expect(screen.queryByText('Garcia')).not.toBeInTheDocument();
  expect(authorizations).toEqual(['Bearer token-maria', 'Bearer token-aisha']);

  expect(Object.keys(apollo.current?.cache.extract() ?? {})).toContain('Patient/okafor');

  // Signed out: the cache is emptied and nothing is asked without a session (the app leaves the screen).
  await act(async () => signInAs(undefined, ''));
  await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(apollo.current?.cache.extract()).toEqual({});
  expect(authorizations).toHaveLength(2);
});
