import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { unreachableMessage } from '../../src/app/api/postAuthRequest';
import { fakeResponse, renderApp, testBaseUrl } from './renderApp';

const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();

beforeEach(() => {
  fetchMock.mockReset();
  globalThis.fetch = fetchMock as unknown as typeof fetch;
});

function emailInput(): HTMLInputElement {
  return screen.getByRole('textbox', { name: /^Email/ }) as HTMLInputElement;
}

function submitEmail(value: string) {
  fireEvent.change(emailInput(), { target: { value } });
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
}

describe('SPEC §2 sign-in form, email step', () => {
  it('has a labelled, required Email field of email type, a Next button and a Register link', () => {
    renderApp('/signin');
    const form = screen.getByRole('form', { name: 'Sign in' });
    const input = within(form).getByLabelText(/^Email/);
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('autocomplete', 'email');
    expect(within(form).getByRole('button', { name: 'Next' })).toHaveAttribute('type', 'submit');
    expect(within(form).getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  });

  it('SPEC §5 an empty email is refused before anything is sent', () => {
    renderApp('/signin');
    submitEmail('');
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each(['maria', 'maria@', '@bloom.example', 'maria garcia@bloom.example'])(
    'SPEC §5 a malformed email (%s) is refused before anything is sent',
    (value) => {
      renderApp('/signin');
      submitEmail(value);
      expect(screen.getByText(/Enter a valid email address/)).toBeInTheDocument();
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it('SPEC §7 posts {email} to {baseUrl}auth/method', async () => {
    fetchMock.mockResolvedValue(fakeResponse(200, {}));
    renderApp('/signin');
    submitEmail('  maria@bloom.example ');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe(`${testBaseUrl}auth/method`);
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json');
    expect(JSON.parse(String(init.body))).toEqual({ email: 'maria@bloom.example' });
  });

  it("SPEC §8 shows the server's OperationOutcome message in a red alert", async () => {
    fetchMock.mockResolvedValue(
      fakeResponse(400, {
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'invalid', details: { text: 'Email domain is not allowed' } }],
      }),
    );
    renderApp('/signin');
    submitEmail('maria@bloom.example');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Email domain is not allowed');
    expect(alert).toHaveClass('MuiAlert-colorError', 'MuiAlert-filled');
  });

  it('SPEC §5 a server issue naming the email field shows under the field', async () => {
    fetchMock.mockResolvedValue(
      fakeResponse(400, {
        resourceType: 'OperationOutcome',
        issue: [
          { severity: 'error', code: 'invalid', details: { text: 'Unknown email' }, expression: ['email'] },
        ],
      }),
    );
    renderApp('/signin');
    submitEmail('nobody@bloom.example');
    expect(await screen.findByText('Unknown email')).toBeInTheDocument();
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
    expect(emailInput()).toHaveAccessibleDescription('Unknown email');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("says 'Could not reach the server' when the request fails", async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderApp('/signin');
    submitEmail('maria@bloom.example');
    expect(await screen.findByRole('alert')).toHaveTextContent(unreachableMessage);
    expect(unreachableMessage).toMatch(/^Could not reach the server/);
  });

  it('does not pretend the user is signed in when the server accepts the email', async () => {
    fetchMock.mockResolvedValue(fakeResponse(200, {}));
    const { router } = renderApp('/signin');
    submitEmail('maria@bloom.example');
    expect(await screen.findByText('Signing in with a password is not available yet.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signin');
  });
});
