import { fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeApi, outcome, type FakeApi } from '../../support/fakeApi';
import { renderApp } from '../../support/renderApp';

let api: FakeApi;

beforeEach(() => {
  api = installFakeApi();
});

describe('forgot password (/resetpassword → POST auth/resetpassword)', () => {
  it('SPEC §5 refuses a malformed email, then posts {email} and says a link may be on its way', async () => {
    renderApp('/resetpassword');
    const email = await screen.findByLabelText(/^Email/);
    fireEvent.change(email, { target: { value: 'maria' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(email).toHaveAccessibleDescription(/Enter a valid email address/);
    expect(api.sent).toEqual([]);

    api.once('POST auth/resetpassword', 200, {});
    fireEvent.change(email, { target: { value: 'maria@bloom.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText(/a reset link is on its way/)).toBeInTheDocument();
    expect(api.bodiesOf('POST auth/resetpassword')).toEqual([{ email: 'maria@bloom.example' }]);
  });

  it('SPEC §8 shows a refusal (e.g. throttled) in a red alert', async () => {
    // The client retries a 429, so every attempt is refused.
    api.always('POST auth/resetpassword', 429, outcome('Too many requests, try again later'));
    renderApp('/resetpassword');
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'maria@bloom.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests, try again later');
  });

  it('is reached from the password step by Forgot password', async () => {
    api.once('POST auth/method', 200, {});
    const { router } = renderApp('/signin');
    fireEvent.change(await screen.findByLabelText(/^Email/), { target: { value: 'maria@bloom.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(await screen.findByRole('link', { name: 'Forgot password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/resetpassword'));
  });
});

describe('set password (/setpassword/:id/:secret → POST auth/setpassword)', () => {
  function fill(password: string, confirm: string) {
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: password } });
    fireEvent.change(screen.getByLabelText(/^Confirm new password/), { target: { value: confirm } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
  }

  it('refuses an empty or unconfirmed password locally, then posts {id, secret, password}', async () => {
    renderApp('/setpassword/req-1/secret-1');
    await screen.findByLabelText(/^New password/);
    fill('', '');
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    fill('a-new-long-password', 'another');
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(api.sent).toEqual([]);

    api.once('POST auth/setpassword', 200, {});
    fill('a-new-long-password', 'a-new-long-password');
    expect(await screen.findByText('Your password has been set.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin');
    expect(api.bodiesOf('POST auth/setpassword')).toEqual([
      { id: 'req-1', secret: 'secret-1', password: 'a-new-long-password' },
    ]);
  });

  it('SPEC §5 puts the server password issue under the field and other issues in a red alert', async () => {
    api.once('POST auth/setpassword', 400, outcome('Password is too common', ['password']));
    api.once('POST auth/setpassword', 400, outcome('Invalid or expired link'));
    renderApp('/setpassword/req-1/secret-1');
    fill('password123', 'password123');
    await waitFor(() =>
      expect(screen.getByLabelText(/^New password/)).toHaveAccessibleDescription('Password is too common'),
    );
    fill('a-new-long-password', 'a-new-long-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid or expired link');
  });
});
