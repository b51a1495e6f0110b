import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { validateRegistration } from '../../src/app/features/register/RegisterPage';
import { fakeResponse, renderApp, testBaseUrl } from './renderApp';

const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();

beforeEach(() => {
  fetchMock.mockReset();
  globalThis.fetch = fetchMock as unknown as typeof fetch;
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
  it('invites registering with Bloom and has required First name, Last name, Email and Password fields', () => {
    renderApp('/register');
    expect(screen.getByRole('heading', { level: 1, name: 'Register with Bloom' })).toBeInTheDocument();
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
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('SPEC §5 validateRegistration treats blank-only values as missing and accepts a complete form', () => {
    expect(validateRegistration({ ...good, firstName: '   ' })).toEqual({
      firstName: 'First name is required',
    });
    expect(validateRegistration(good)).toEqual({});
  });

  it('SPEC §7 posts the names, email and password to {baseUrl}auth/newuser', async () => {
    fetchMock.mockResolvedValue(fakeResponse(200, { login: 'abc' }));
    renderApp('/register');
    fill({ ...good, firstName: ' Maria ' });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe(`${testBaseUrl}auth/newuser`);
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ ...good, remember: false });
    expect(
      await screen.findByText(/finishing registration in the app is not available yet/),
    ).toBeInTheDocument();
  });

  it('SPEC §5/§8 puts field issues under their fields and the rest in a red alert', async () => {
    fetchMock.mockResolvedValue(
      fakeResponse(400, {
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
      }),
    );
    renderApp('/register');
    fill(good);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Registration is closed; Try again later');
    expect(alert).not.toHaveTextContent('Email already registered');
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription('Email already registered');
  });

  it('explains a server error that is not an OperationOutcome', async () => {
    fetchMock.mockResolvedValue(fakeResponse(502, 'not json', 'Bad Gateway'));
    renderApp('/register');
    fill(good);
    expect(await screen.findByRole('alert')).toHaveTextContent('The server answered 502 Bad Gateway');
  });
});
