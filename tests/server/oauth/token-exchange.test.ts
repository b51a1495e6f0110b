// Token exchange (RFC 8693, SPEC §6) over real HTTP: an external provider's userinfo served on
// loopback, the user matched by email or by subject, and each refusal.
import type { Project, User } from '@medplum/fhirtypes';
import { Repository, systemContext } from '../../../src/server/repo';
import {
  addMembership,
  createClient,
  createProject,
  createUser,
  postForm,
} from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { startUserInfoProvider } from './support/userinfo-provider';
import type { UserInfoProvider } from './support/userinfo-provider';

const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';

describe.each(databases())('token exchange on %s', (_engine, kind) => {
  let server: TestServer;
  let provider: UserInfoProvider;
  let project: Project;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    project = await createProject(server.db);
    provider = await startUserInfoProvider();
  });

  afterAll(async () => {
    await server.close();
    await provider.close();
  });

  function identityProvider(useSubject = false) {
    return {
      authorizeUrl: 'http://127.0.0.1/authorize',
      tokenUrl: 'http://127.0.0.1/token',
      userInfoUrl: provider.userInfoUrl,
      clientId: 'external-id',
      clientSecret: 'external-secret',
      useSubject,
    };
  }

  const exchange = (form: Record<string, string>) =>
    postForm<{
      access_token?: string;
      error?: string;
      error_description?: string;
      profile?: { reference?: string };
    }>(`${server.baseUrl}oauth2/token`, { grant_type: GRANT, subject_token_type: ACCESS_TOKEN, ...form });

  test('an external access token is exchanged for ours, the user matched by email', async () => {
    const client = await createClient(server.db, project, { identityProvider: identityProvider() });
    const user = await createUser(server.db);
    const membership = await addMembership(server.db, user, project, 'Patient');
    provider.tokens.set('ext-token-1', { sub: 'ext-1', email: (user.email as string).toLowerCase() });
    const response = await exchange({ client_id: client.id as string, subject_token: 'ext-token-1' });
    expect(response.status).toBe(200);
    expect(response.body.profile).toEqual(membership.profile);
  });

  test('with useSubject the user is matched by externalId', async () => {
    const client = await createClient(server.db, project, { identityProvider: identityProvider(true) });
    const user = await createUser(server.db);
    await new Repository(server.db, systemContext()).updateResource<User>({
      ...user,
      externalId: 'subject-42',
    });
    await addMembership(server.db, user, project, 'Practitioner');
    provider.tokens.set('ext-token-2', { sub: 'subject-42', email: 'unrelated@example.org' });
    const response = await exchange({ client_id: client.id as string, subject_token: 'ext-token-2' });
    expect(response.status).toBe(200);
  });

  test('a token the provider refuses, an unknown user, a client without a provider: refused', async () => {
    const client = await createClient(server.db, project, { identityProvider: identityProvider() });
    const refused = await exchange({ client_id: client.id as string, subject_token: 'not-known-there' });
    expect(refused.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The identity provider refused the subject token',
    });
    provider.tokens.set('ext-token-3', { sub: 'ext-3', email: 'nobody-here@example.org' });
    const unknown = await exchange({ client_id: client.id as string, subject_token: 'ext-token-3' });
    expect(unknown.body.error).toBe('invalid_grant');
    const plain = await createClient(server.db, project, {});
    const noProvider = await exchange({ client_id: plain.id as string, subject_token: 'ext-token-1' });
    expect(noProvider.status).toBe(401);
    const wrongType = await exchange({
      client_id: client.id as string,
      subject_token: 'ext-token-1',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    });
    expect(wrongType.body.error).toBe('invalid_request');
  });
});
