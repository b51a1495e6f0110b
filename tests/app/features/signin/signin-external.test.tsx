// The app's side of an external sign-in (SPEC §4 Login): back at /signin from the server's
// auth/external with ?code= (Success → processCode → home), ?login= (the next step read from GET
// auth/login/{login}) or ?error= (shown on the email step); and the configured clientId (from
// /config.json) with every code exchange, naming the registered redirect URI /signin.
import { fireEvent, screen } from '@testing-library/react';
import type { ProjectMembership } from '@medplum/fhirtypes';
import { readExternalReturn } from '../../../../src/app/features/signin/externalReturn';
import { installFakeApi, outcome, signInAnswers, type FakeApi } from '../../support/fakeApi';
import { renderApp } from '../../support/renderApp';

let api: FakeApi;

/** The token answer for the app's client: its access token's audience (client_id) is `clientId` (SPEC §5 JWT checks). */
function tokenFor(clientId: string) {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    sub: 'user-1',
    client_id: clientId,
    login_id: 'L1',
    profile: 'Patient/maria-1',
    iat: now,
    exp: now + 3600,
  };
  api.once('POST oauth2/token', 200, {
    token_type: 'Bearer',
    access_token: `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.sig`,
    refresh_token: 'refresh-1',
    expires_in: 3600,
    scope: 'openid',
    profile: { reference: 'Patient/maria-1' },
    project: { reference: 'Project/clinic' },
  });
}

beforeEach(() => {
  api = installFakeApi();
});

describe('readExternalReturn', () => {
  it.each([
    ['?login=L1&code=C1', { code: 'C1' }],
    ['?login=L1', { login: 'L1' }],
    ['?error=access_denied&error_description=User+not+found', { error: 'User not found' }],
    ['?error=access_denied&code=C1', { error: 'access_denied' }],
    ['?scope=openid', {}],
  ])('%s → %j', (search, expected) => {
    expect(readExternalReturn(new URLSearchParams(search))).toEqual(expected);
  });
});

describe('back from the external provider', () => {
  it('SPEC §4 ?code= lands signed in: the code is exchanged with the stored verifier, the clientId and /signin', async () => {
    // The verifier the app stored before it left for the provider (BloomClient.startPkce).
    localStorage.setItem('@bloom/codeVerifier', 'stored-verifier');
    tokenFor('bloom-app');
    signInAnswers(api);
    const { router } = renderApp('/signin?login=L1&code=C1', undefined, { clientId: 'bloom-app' });
    expect(await screen.findByRole('heading', { name: 'Hello Maria' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(api.bodiesOf('POST oauth2/token')).toEqual([
      {
        grant_type: 'authorization_code',
        code: 'C1',
        client_id: 'bloom-app',
        redirect_uri: `${window.location.origin}/signin`,
        code_verifier: 'stored-verifier',
      },
    ]);
  });

  it('?login= with a step left: the step is read from auth/login/{login} (here: Choose profile)', async () => {
    const memberships: ProjectMembership[] = ['Clinic A', 'Clinic B'].map((name, i) => ({
      resourceType: 'ProjectMembership',
      id: `m${i}`,
      project: { reference: `Project/p${i}`, display: name },
      user: { reference: 'User/u1' },
      profile: { reference: `Patient/pt${i}`, display: `Maria at ${name}` },
    }));
    api.once('GET auth/login/L2', 200, { login: 'L2', memberships });
    renderApp('/signin?login=L2');
    expect(await screen.findByRole('heading', { name: 'Choose profile' })).toBeInTheDocument();
    expect(screen.getByText('Maria at Clinic B')).toBeInTheDocument();
    expect(api.sent.filter((r) => r.path === 'auth/login/L2')).toHaveLength(1);
  });

  it('?login= that the server refuses shows its error on the email step', async () => {
    api.once('GET auth/login/L3', 400, outcome('Login expired', ['login']));
    renderApp('/signin?login=L3');
    expect(await screen.findByRole('alert')).toHaveTextContent('Login expired');
    expect(screen.getByRole('button', { name: 'Next' })).toBeInTheDocument();
  });

  it("?error= shows the server's description in a red alert above the email step; nothing is exchanged", async () => {
    renderApp('/signin?error=access_denied&error_description=User%20not%20found');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('ErrorUser not found');
    expect(alert).toHaveClass('MuiAlert-colorError');
    expect(screen.getByRole('textbox', { name: /^Email/ })).toBeInTheDocument();
    expect(api.sent).toEqual([]);
  });
});

describe('SPEC §4 the configured clientId at sign-in (issue #3: /config.json clientId)', () => {
  it('a password sign-in sends the clientId with auth/login and the code exchange', async () => {
    api.once('POST auth/method', 200, {});
    api.once('POST auth/login', 200, { login: 'L1', code: 'C1' });
    tokenFor('bloom-app');
    signInAnswers(api);
    renderApp('/signin', undefined, { clientId: 'bloom-app' });
    fireEvent.change(screen.getByRole('textbox', { name: /^Email/ }), {
      target: { value: 'maria@bloom.example' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.change(await screen.findByLabelText(/^Password/), { target: { value: 'bloom-demo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Hello Maria' })).toBeInTheDocument();
    expect(api.bodiesOf('POST auth/login')[0]).toMatchObject({ clientId: 'bloom-app' });
    expect(api.bodiesOf('POST oauth2/token')[0]).toMatchObject({
      client_id: 'bloom-app',
      redirect_uri: `${window.location.origin}/signin`,
    });
  });
});
