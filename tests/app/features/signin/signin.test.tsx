import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ProjectMembership } from '@medplum/fhirtypes';
import { unreachableMessage } from '../../../../src/app/api/errorOutcome';
import { filterMemberships } from '../../../../src/app/features/signin/ChooseProfileStep';
import { installFakeApi, outcome, signInAnswers, type FakeApi } from '../../support/fakeApi';
import { renderApp } from '../../support/renderApp';

let api: FakeApi;

beforeEach(() => {
  api = installFakeApi();
});

function emailInput(): HTMLInputElement {
  return screen.getByRole('textbox', { name: /^Email/ }) as HTMLInputElement;
}

function submitEmail(value: string) {
  fireEvent.change(emailInput(), { target: { value } });
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
}

async function toPasswordStep(email = 'maria@bloom.example') {
  api.once('POST auth/method', 200, {});
  submitEmail(email);
  return (await screen.findByLabelText(/^Password/)) as HTMLInputElement;
}

async function submitPassword(password = 'bloom-demo') {
  const input = await toPasswordStep();
  fireEvent.change(input, { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

function memberships(count: number): ProjectMembership[] {
  return Array.from({ length: count }, (_, i) => ({
    resourceType: 'ProjectMembership',
    id: `m${i}`,
    project: { reference: `Project/p${i}`, display: i === 0 ? 'Bloom Clinic' : `Clinic ${i}` },
    user: { reference: 'User/u1' },
    profile: { reference: `Patient/pt${i}`, display: `Maria ${i}` },
  }));
}

describe('SPEC §2 sign-in step 1: email', () => {
  it('has a labelled, required Email field of email type, a Next button and a Register link, width 400', async () => {
    renderApp('/signin');
    const form = await screen.findByRole('form', { name: 'Sign in' });
    const input = within(form).getByLabelText(/^Email/);
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toBeRequired();
    expect(within(form).getByRole('button', { name: 'Next' })).toHaveAttribute('type', 'submit');
    expect(within(form).getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(screen.queryByText('or')).not.toBeInTheDocument();
    expect(form.closest('.MuiPaper-root')).toHaveStyle({ maxWidth: '400px' });
  });

  it('SPEC §5 an empty or malformed email is refused before anything is sent', () => {
    renderApp('/signin');
    submitEmail('');
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    submitEmail('maria@');
    expect(screen.getByText(/Enter a valid email address/)).toBeInTheDocument();
    expect(api.sent).toEqual([]);
  });

  it('SPEC §7 posts {email} to auth/method and, with no external provider, goes to the password step', async () => {
    renderApp('/signin');
    await toPasswordStep('  maria@bloom.example ');
    expect(api.bodiesOf('POST auth/method')).toEqual([{ email: 'maria@bloom.example' }]);
    expect(api.sent[0].headers.get('Content-Type')).toBe('application/json');
    expect(screen.getByText('maria@bloom.example')).toBeInTheDocument();
  });

  it('sends the configured app clientId with auth/method', async () => {
    renderApp('/signin', undefined, { clientId: 'app-client' });
    await toPasswordStep();
    expect(api.bodiesOf('POST auth/method')).toEqual([
      { email: 'maria@bloom.example', clientId: 'app-client' },
    ]);
  });

  it("SPEC §2/§4 an external provider's authorizeUrl shows its sign-in button, the 'or' divider and the password route", async () => {
    api.once('POST auth/method', 200, {
      domain: 'hospital.example',
      authorizeUrl: 'https://idp.example/authorize',
    });
    renderApp('/signin');
    submitEmail('doc@hospital.example');
    expect(await screen.findByRole('button', { name: 'Sign in with hospital.example' })).toBeInTheDocument();
    expect(screen.getByText('or')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with a password' }));
    expect(await screen.findByLabelText(/^Password/)).toBeInTheDocument();
  });

  it('SPEC §8 a server refusal shows in a red alert; a field issue under the Email field', async () => {
    api.once('POST auth/method', 400, outcome('Email domain is not allowed'));
    renderApp('/signin');
    submitEmail('maria@bloom.example');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('ErrorEmail domain is not allowed');
    expect(alert).toHaveClass('MuiAlert-colorError', 'MuiAlert-filled');

    api.once('POST auth/method', 400, outcome('Email must be an email address', ['email']));
    submitEmail('maria@bloom.example');
    await waitFor(() => expect(emailInput()).toHaveAccessibleDescription('Email must be an email address'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("says 'Could not reach the server' when the request fails", async () => {
    api.unreachable('POST auth/method');
    renderApp('/signin');
    submitEmail('maria@bloom.example');
    expect(await screen.findByRole('alert')).toHaveTextContent(unreachableMessage);
  });
});

describe('SPEC §2 sign-in step 2: password', () => {
  it('has Forgot password, Remember me and Sign in; an empty password is refused locally', async () => {
    renderApp('/signin');
    await toPasswordStep();
    expect(screen.getByRole('link', { name: 'Forgot password' })).toHaveAttribute('href', '/resetpassword');
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).not.toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(api.bodiesOf('POST auth/login')).toEqual([]);
  });

  it("SPEC §8 a wrong password shows the server's message in a red alert and stays on the step", async () => {
    api.once('POST auth/login', 400, outcome('Email or password is invalid'));
    const { router } = renderApp('/signin');
    await submitPassword('wrong-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Email or password is invalid');
    expect(router.state.location.pathname).toBe('/signin');
    expect(screen.getByLabelText(/^Password/)).toBeInTheDocument();
  });

  it('SPEC §4/§7 posts email, password, remember and a S256 PKCE challenge; a code → Success → processCode → / greeting the patient', async () => {
    api.once('POST auth/login', 200, { login: 'L1', code: 'C1' });
    signInAnswers(api);
    const { router } = renderApp('/signin');
    const input = await toPasswordStep();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    fireEvent.change(input, { target: { value: 'bloom-demo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Hello Maria' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    const [login] = api.bodiesOf('POST auth/login') as Record<string, unknown>[];
    expect(login).toMatchObject({ email: 'maria@bloom.example', password: 'bloom-demo', remember: true });
    expect(login.codeChallengeMethod).toBe('S256');
    const [token] = api.bodiesOf('POST oauth2/token') as Record<string, string>[];
    expect(token).toMatchObject({ grant_type: 'authorization_code', code: 'C1' });
    expect(token.code_verifier).toMatch(/^[0-9a-f]+$/i);
    expect(screen.getByRole('button', { name: /Maria$/ })).toHaveAttribute('aria-haspopup', 'menu');
  });

  it("SPEC §2 step 7 shows 'Success' while the code is exchanged, and the exchange's error when it fails", async () => {
    api.once('POST auth/login', 200, { login: 'L1', code: 'C1' });
    api.once('POST oauth2/token', 400, { error: 'invalid_grant', error_description: 'Invalid code' });
    renderApp('/signin');
    await submitPassword();
    expect(await screen.findByRole('heading', { name: 'Success' })).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid code');
  });
});

describe('SPEC §2 sign-in step 3: Enter MFA code', () => {
  it("asks for the code, posts {login, token} to auth/mfa/verify, and shows a wrong code in a red 'Error' box", async () => {
    api.once('POST auth/login', 200, { login: 'L1', mfaRequired: true });
    api.once('POST auth/mfa/verify', 400, outcome('Invalid MFA token', ['token']));
    api.once('POST auth/mfa/verify', 200, { login: 'L1', code: 'C1' });
    signInAnswers(api);
    const { router } = renderApp('/signin');
    await submitPassword();
    expect(await screen.findByRole('heading', { name: 'Enter MFA code' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Submit code' }));
    expect(screen.getByText('MFA code is required')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText(/^MFA code/), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit code' }));
    const box = await screen.findByRole('alert');
    expect(within(box).getByText('Error')).toBeInTheDocument();
    expect(box).toHaveTextContent('Invalid MFA token');
    expect(box).toHaveClass('MuiAlert-colorError');

    fireEvent.change(screen.getByLabelText(/^MFA code/), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit code' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.bodiesOf('POST auth/mfa/verify')).toEqual([
      { login: 'L1', token: '000000' },
      { login: 'L1', token: '123456' },
    ]);
  });
});

describe('SPEC §2 sign-in step 4: Choose profile', () => {
  it('filterMemberships matches profile and project names and keeps at most 10', () => {
    expect(filterMemberships(memberships(15), '')).toHaveLength(10);
    expect(filterMemberships(memberships(15), 'maria 1').map((m) => m.id)).toEqual([
      'm1',
      'm10',
      'm11',
      'm12',
      'm13',
      'm14',
    ]);
    expect(filterMemberships(memberships(3), 'bloom clinic').map((m) => m.id)).toEqual(['m0']);
    expect(filterMemberships(memberships(3), 'nobody')).toEqual([]);
  });

  it("lists at most 10 memberships, searches them, says 'Nothing found...' and posts the chosen one to auth/profile", async () => {
    api.once('POST auth/login', 200, { login: 'L1', memberships: memberships(12) });
    api.once('POST auth/profile', 200, { login: 'L1', code: 'C1' });
    signInAnswers(api);
    const { router } = renderApp('/signin');
    await submitPassword();
    expect(await screen.findByRole('heading', { name: 'Choose profile' })).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Profiles' });
    expect(within(list).getAllByRole('button')).toHaveLength(10);
    const search = screen.getByRole('searchbox', { name: 'Search' });
    fireEvent.change(search, { target: { value: 'nobody' } });
    expect(screen.getByText('Nothing found...')).toBeInTheDocument();
    fireEvent.change(search, { target: { value: 'Clinic 11' } });
    fireEvent.click(screen.getByRole('button', { name: /Maria 11/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.bodiesOf('POST auth/profile')).toEqual([{ login: 'L1', profile: 'm11' }]);
  });

  it('shows a refused choice in a red alert', async () => {
    api.once('POST auth/login', 200, { login: 'L1', memberships: memberships(2) });
    api.once('POST auth/profile', 400, outcome('Profile not found'));
    renderApp('/signin');
    await submitPassword();
    fireEvent.click(await screen.findByRole('button', { name: /Maria 0/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Profile not found');
  });
});

describe('SPEC §2 sign-in step 5: Choose scope', () => {
  it('with ?scope=, shows one checkbox per scope and posts the checked ones with Set scope', async () => {
    api.once('POST auth/login', 200, { login: 'L1', code: 'C1' });
    api.once('POST auth/scope', 200, { login: 'L1', code: 'C1' });
    signInAnswers(api);
    const { router } = renderApp('/signin?scope=openid%20profile%20patient/*.read');
    await submitPassword();
    expect(await screen.findByRole('heading', { name: 'Choose scope' })).toBeInTheDocument();
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes).toHaveLength(3);
    fireEvent.click(screen.getByRole('checkbox', { name: 'profile' }));
    fireEvent.click(screen.getByRole('button', { name: 'Set scope' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.bodiesOf('POST auth/scope')).toEqual([{ login: 'L1', scope: 'openid patient/*.read' }]);
    expect((api.bodiesOf('POST auth/login')[0] as { scope: string }).scope).toBe(
      'openid profile patient/*.read',
    );
  });

  it("shows the server's scope error", async () => {
    api.once('POST auth/login', 200, { login: 'L1', code: 'C1' });
    api.once('POST auth/scope', 400, outcome('Scope must be a space-separated list', ['scope']));
    renderApp('/signin?scope=openid%20profile');
    await submitPassword();
    fireEvent.click(await screen.findByRole('button', { name: 'Set scope' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Scope must be a space-separated list');
  });
});

describe('SPEC §2 sign-in step 6: Create project', () => {
  it('SPEC §5 a user without memberships names a project; project name errors show under Project Name (firstName slot)', async () => {
    api.once('POST auth/login', 200, { login: 'L1' });
    api.once('POST auth/newproject', 400, outcome('Project name is required', ['projectName', 'firstName']));
    api.once('POST auth/newproject', 200, { login: 'L1', code: 'C1' });
    signInAnswers(api);
    const { router } = renderApp('/signin');
    await submitPassword();
    expect(await screen.findByRole('heading', { name: 'Create project' })).toBeInTheDocument();
    const name = screen.getByLabelText(/^Project Name/);
    expect(name.closest('.MuiPaper-root')).toHaveStyle({ maxWidth: '450px' });
    fireEvent.click(screen.getByRole('button', { name: 'Create project' }));
    expect(name).toHaveAccessibleDescription('Project name is required');
    expect(api.bodiesOf('POST auth/newproject')).toEqual([]);

    fireEvent.change(name, { target: { value: '  ' } });
    fireEvent.change(name, { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create project' }));
    await waitFor(() => expect(name).toHaveAccessibleDescription('Project name is required'));
    expect(api.bodiesOf('POST auth/newproject')).toEqual([{ login: 'L1', projectName: 'x' }]);

    fireEvent.change(name, { target: { value: 'My Clinic' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create project' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.bodiesOf('POST auth/newproject')[1]).toEqual({ login: 'L1', projectName: 'My Clinic' });
  });
});

describe('Change of email', () => {
  it('Change goes back to the email step', async () => {
    renderApp('/signin');
    await toPasswordStep();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Change' })));
    expect(screen.getByRole('button', { name: 'Next' })).toBeInTheDocument();
  });
});
