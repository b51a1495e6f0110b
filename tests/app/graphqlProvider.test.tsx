// The app's ApolloProvider: a screen's useQuery with a typed document goes through the link
// chain with the platform client's token; the cache is emptied when the signed-in profile changes
// (another person must not see the previous answers) and kept across token renewals.
import type { ApolloClient } from '@apollo/client';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { ClientEventEmitter } from '../../src/client/events';
import { AccountProfileDocument, GraphqlProvider } from '../../src/graphql';

class FakePlatformClient extends ClientEventEmitter {
  profile: string | undefined = 'Patient/maria';
  token = 'token-maria';
  fhirUrl = () => 'https://api.test/fhir/R4/';
  getAccessToken = () => this.token;
  getActiveLogin = () => ({ profile: { reference: this.profile } });
  refreshIfExpired = async () => undefined;
  handleUnauthorized = async () => undefined;
  unauthenticatedAfterRetry = () => new Error('Unauthenticated');
  signInAs(profile: string | undefined, token: string): void {
    this.profile = profile;
    this.token = token;
    this.dispatchEvent({ type: 'change' });
  }
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
  const client = new FakePlatformClient();
  const authorizations: (string | null)[] = [];
  const answers = [patientsAnswer('Garcia'), patientsAnswer('Okafor')];
  const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    authorizations.push(new Headers(init?.headers).get('authorization'));
    return answers.shift() as Response;
  }) as typeof globalThis.fetch;

  const apollo: { current?: ApolloClient } = {};
  function ApolloProbe() {
    const found = useApolloClient();
    useEffect(() => {
      apollo.current = found;
    }, [found]);
    return null;
  }
  render(
    <GraphqlProvider client={client} fetch={fetch}>
      <ApolloProbe />
      <PatientNames />
    </GraphqlProvider>,
  );
  expect(await screen.findByText('Garcia')).toBeInTheDocument();
  expect(authorizations).toEqual(['Bearer token-maria']);

  // A token renewal for the same person keeps the answer: no new request.
  await act(async () => client.signInAs('Patient/maria', 'token-maria-2'));
  expect(screen.getByText('Garcia')).toBeInTheDocument();
  expect(authorizations).toHaveLength(1);

  // Another person signs in: the cache is cleared, the query runs again with the new token.
  await act(async () => client.signInAs('Patient/aisha', 'token-aisha'));
  expect(await screen.findByText('Okafor')).toBeInTheDocument();
  expect(screen.queryByText('Garcia')).not.toBeInTheDocument();
  expect(authorizations).toEqual(['Bearer token-maria', 'Bearer token-aisha']);

  expect(Object.keys(apollo.current?.cache.extract() ?? {})).toContain('Patient/okafor');

  // Signed out: the cache is emptied and nothing is asked without a session (the app leaves the screen).
  await act(async () => client.signInAs(undefined, ''));
  await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(apollo.current?.cache.extract()).toEqual({});
  expect(authorizations).toHaveLength(2);
});
