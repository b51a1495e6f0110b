import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { validateRegistration } from '../../../../src/app/features/register/RegisterPage';
import { installFakeApi, maria, outcome, signInAnswers, type FakeApi } from '../../support/fakeApi';
import { renderApp } from '../../support/renderApp';

let api: FakeApi;

beforeEach(() => {
  api = installFakeApi();
});

const good = { firstName: 'Maria', lastName: 'Garcia', email: 'maria@bloom.example', password: 'bloom-demo' };

function fill(values: Partial<typeof good>) {
  const labels = { firstName: /^First name/, lastName: /^Last name/, email: /^Email/, password: /^Password/ };
  for (const [key, value] of Object.entries(values)) {
    fireEvent.change(screen.getByLabelText(labels[key as keyof typeof labels]), { target: { value } });
  }
  fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('SPEC §2 registration form', () => {
  it('invites registering with Bloom and has required First name, Last name, Email and Password fields', async () => {
    renderApp('/register');
    // The page is a lazy chunk.
    expect(await screen.findByRole('heading', { level: 1, name: 'Register with Bloom' })).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Register' });
    for (const label of [/^First name/, /^Last name/, /^Email/, /^Password/]) {
      expect(within(form).getByLabelText(label)).toBeRequired();
    }
    expect(within(form).getByLabelText(/^Email/)).toHaveAttribute('type', 'email');
    expect(within(form).getByLabelText(/^Password/)).toHaveAttribute('type', 'password');
    expect(within(form).getByLabelText(/^Password/)).toHaveAttribute('autocomplete', 'new-password');
    expect(within(form).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/signin');
  });

  it('SPEC §5 refuses missing fields and a malformed email before anything is sent', () => {
    renderApp('/register');
    fill({ email: 'maria-at-bloom' });
    expect(screen.getByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText(/Enter a valid email address/)).toBeInTheDocument();
    expect(api.sent).toEqual([]);
  });

  it('SPEC §5 validateRegistration treats blank-only values as missing and accepts a complete form', () => {
    expect(validateRegistration({ ...good, firstName: '   ' })).toEqual({
      firstName: 'First name is required',
    });
    expect(validateRegistration(good)).toEqual({});
  });

  it('SPEC §7 newuser → newpatient (the clinic project from config.json) → processCode → / greeting the patient', async () => {
    api.once('POST auth/newuser', 200, { login: 'L1' });
    api.once('POST auth/newpatient', 200, { login: 'L1', code: 'C1' });
    signInAnswers(api, maria);
    const { router } = renderApp('/register', undefined, { projectId: 'clinic' });
    fill({ ...good, firstName: ' Maria ' });
    expect(await screen.findByRole('heading', { name: 'Hello Maria' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    const [newUser] = api.bodiesOf('POST auth/newuser') as Record<string, unknown>[];
    expect(newUser).toMatchObject({
      ...good,
      remember: false,
      projectId: 'clinic',
      codeChallengeMethod: 'S256',
    });
    expect(newUser).not.toHaveProperty('recaptchaToken');
    expect(api.bodiesOf('POST auth/newpatient')).toEqual([{ login: 'L1', projectId: 'clinic' }]);
    expect(api.bodiesOf('POST oauth2/token')[0]).toMatchObject({
      code: 'C1',
      grant_type: 'authorization_code',
    });
  });

  it('without a clinic project in config.json the new user gets a project of their own (auth/newproject)', async () => {
    api.once('POST auth/newuser', 200, { login: 'L1' });
    api.once('POST auth/newproject', 200, { login: 'L1', code: 'C1' });
    signInAnswers(api, maria);
    const { router } = renderApp('/register');
    fill(good);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.bodiesOf('POST auth/newproject')).toEqual([{ login: 'L1', projectName: 'Maria Garcia' }]);
    expect(api.bodiesOf('POST auth/newpatient')).toEqual([]);
  });

  it("SPEC §8 a refused newpatient shows the server's message and nobody is signed in", async () => {
    api.once('POST auth/newuser', 200, { login: 'L1' });
    api.once(
      'POST auth/newpatient',
      400,
      outcome('This project does not allow patient registration', ['projectId']),
    );
    const { router } = renderApp('/register', undefined, { projectId: 'clinic' });
    fill(good);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This project does not allow patient registration',
    );
    expect(router.state.location.pathname).toBe('/register');
    expect(api.bodiesOf('POST oauth2/token')).toEqual([]);
  });

  it('asks reCAPTCHA for a token only when a site key is configured', async () => {
    const execute = jest.fn(async () => 'captcha-token');
    window.grecaptcha = { ready: (callback) => callback(), execute };
    api.once('POST auth/newuser', 400, outcome('Registration is closed'));
    renderApp('/register', undefined, { recaptchaSiteKey: 'site-key' });
    fill(good);
    await screen.findByRole('alert');
    expect(execute).toHaveBeenCalledWith('site-key', { action: 'register' });
    expect(api.bodiesOf('POST auth/newuser')[0]).toMatchObject({
      recaptchaSiteKey: 'site-key',
      recaptchaToken: 'captcha-token',
    });
    delete window.grecaptcha;
  });

  it('SPEC §5/§8 puts field issues under their fields and the rest in a red alert', async () => {
    api.once('POST auth/newuser', 400, {
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'invalid',
          details: { text: 'Email already registered' },
          expression: ['email'],
        },
        { severity: 'error', code: 'invalid', details: { text: 'Registration is closed' } },
        { severity: 'error', code: 'invalid', details: { text: 'Try again later' } },
      ],
    });
    renderApp('/register');
    fill(good);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Registration is closed; Try again later');
    expect(alert).not.toHaveTextContent('Email already registered');
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription('Email already registered');
  });

  it('explains a server error that is not an OperationOutcome', async () => {
    api.once('POST auth/newuser', 502, 'not json');
    renderApp('/register');
    fill(good);
    expect(await screen.findByRole('alert')).toHaveTextContent('HTTP 502');
  });
});
