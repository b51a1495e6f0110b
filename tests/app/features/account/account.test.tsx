// account/profile (SPEC §2 signed-in routes 'account/*' → account/profile, user menu
// 'Your profile'/'Settings'; SPEC §5 MFA code required; SPEC §8 errors): the signed-in profile's name
// and email from auth/me, and the two-factor card — status, enrolment with a QR code and the secret,
// verification with success, a wrong code under the field, and a server error in the red alert.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { create } from 'qrcode';
import { groupSecret, validateMfaCode } from '../../../../src/app/features/account/TwoFactorCard';
import { qrPath } from '../../../../src/app/features/account/QrCode';
import { outcome, type FakeApi } from '../../support/fakeApi';
import { installMariaAccountApi, MFA_ENROLL_URI, MFA_SECRET } from './mariaAccountApi';
import { renderApp } from '../../support/renderApp';

let api: FakeApi;

beforeEach(() => {
  api = installMariaAccountApi();
});

function card(): HTMLElement {
  return screen.getByRole('region', { name: 'Two-factor authentication' });
}

async function openEnrolment() {
  api.once('GET auth/mfa/status', 200, { enrolled: false, secret: MFA_SECRET, enrollUri: MFA_ENROLL_URI });
  api.once('POST auth/mfa/enroll', 200, { enrolled: false, secret: MFA_SECRET, enrollUri: MFA_ENROLL_URI });
  renderApp('/account/profile');
  fireEvent.click(await screen.findByRole('button', { name: 'Enable two-factor authentication' }));
  return (await screen.findByRole('textbox', { name: /^Code from your app/ })) as HTMLInputElement;
}

function submitCode(input: HTMLInputElement, code: string) {
  fireEvent.change(input, { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
}

describe('SPEC §2 account routes', () => {
  it('account/* redirects to account/profile, which shows the name and email in the form, beside the Account menu', async () => {
    api.always('GET auth/mfa/status', 200, { enrolled: true });
    const { router } = renderApp('/account');
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/profile');
    expect(await screen.findByRole('textbox', { name: /^First name/ })).toHaveValue('Maria');
    expect(screen.getByRole('textbox', { name: /^Last name/ })).toHaveValue('Garcia');
    expect(screen.getByRole('textbox', { name: /^Email/ })).toHaveValue('maria@bloom.example');
    expect(document.title).toBe('Profile · Bloom');
    // SPEC §2 Navigation: the Account side menu (collapsed below 768 px, as jsdom has no media queries).
    const menu = screen.getByRole('navigation', { name: 'Account' });
    fireEvent.click(within(menu).getByRole('button', { name: 'Account menu' }));
    expect(within(menu).getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/account/profile');
    expect(within(menu).getByRole('link', { name: 'Provider' })).toHaveAttribute('href', '/account/provider');
  });

  it('SPEC §2 account/provider/* is the Provider page; an unknown account path goes to account/profile', async () => {
    api.always('GET auth/mfa/status', 200, { enrolled: true });
    const { router } = renderApp('/account/provider/anything');
    expect(await screen.findByRole('heading', { level: 1, name: 'Provider' })).toBeInTheDocument();
    await act(() => router.navigate('/account/nothing-here'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/profile'));
  });

  it("the user menu's Your profile and Settings go to account/profile", async () => {
    api.always('GET auth/mfa/status', 200, { enrolled: true });
    renderApp('/');
    fireEvent.click(await screen.findByRole('button', { name: /Maria$/ }));
    expect(await screen.findByRole('menuitem', { name: 'Your profile' })).toHaveAttribute(
      'href',
      '/account/profile',
    );
    expect(screen.getByRole('menuitem', { name: 'Settings' })).toHaveAttribute('href', '/account/profile');
  });

  it('signed out, account/profile sends the browser to /', async () => {
    localStorage.clear();
    const { router } = renderApp('/account/profile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('two-factor card', () => {
  it('shows the status of auth/mfa/status: on', async () => {
    api.once('GET auth/mfa/status', 200, { enrolled: true });
    renderApp('/account/profile');
    await screen.findByRole('region', { name: 'Two-factor authentication' });
    expect(await within(card()).findByRole('status')).toHaveTextContent('Two-factor authentication is on.');
    // The only control: turning it off (turnOffTwoFactor.test.tsx).
    expect(
      within(card())
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Turn off two-step sign-in']);
  });

  it('enrol: QR code of the otpauth URL and the secret as text, then a right code turns MFA on', async () => {
    const input = await openEnrolment();
    expect(api.bodiesOf('POST auth/mfa/enroll')).toEqual([{}]);
    // The QR encoder is a lazy chunk.
    const qr = await within(card()).findByRole('img', { name: 'QR code for your authenticator app' });
    // The QR symbol is the one for the otpauth URL: its size (plus the quiet zone) and its modules.
    const size = create(MFA_ENROLL_URI, { errorCorrectionLevel: 'M' }).modules.size;
    expect(qr).toHaveAttribute('viewBox', `-4 -4 ${size + 8} ${size + 8}`);
    expect(qr.querySelector('path')).toHaveAttribute('d', qrPath(MFA_ENROLL_URI).path);
    expect(within(card()).getByText(groupSecret(MFA_SECRET))).toBeInTheDocument();
    expect(input).toBeRequired();
    // Keyboard users continue where the Enable button was.
    expect(input).toHaveFocus();
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
    expect(input).toHaveAttribute('inputmode', 'numeric');

    api.once('POST auth/mfa/enroll', 200, { enrolled: true });
    submitCode(input, ' 123456 ');
    expect(await within(card()).findByRole('status')).toHaveTextContent(
      'Two-factor authentication is now on.',
    );
    expect(api.bodiesOf('POST auth/mfa/enroll')).toEqual([{}, { token: '123456' }]);
    expect(within(card()).queryByRole('img')).not.toBeInTheDocument();
  });

  it('a wrong code: the server issue shows under the field, which is marked invalid; no alert', async () => {
    const input = await openEnrolment();
    api.once('POST auth/mfa/enroll', 400, outcome('Invalid MFA token', ['token']));
    submitCode(input, '000000');
    expect(await within(card()).findByText('Invalid MFA token')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Invalid MFA token');
    expect(within(card()).queryByRole('alert')).not.toBeInTheDocument();
    // The secret stays up for another try.
    expect(within(card()).getByText(groupSecret(MFA_SECRET))).toBeInTheDocument();
  });

  it("SPEC §8 a server error shows in the red 'Error' alert", async () => {
    const input = await openEnrolment();
    api.always('POST auth/mfa/enroll', 500, {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'exception', details: { text: 'Internal server error' } }],
    });
    submitCode(input, '123456');
    const alert = await within(card()).findByRole('alert', {}, { timeout: 3000 });
    expect(alert).toHaveTextContent('ErrorInternal server error');
    expect(alert).toHaveClass('MuiAlert-colorError');
    expect(input).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('SPEC §5 an empty or non-numeric code is refused before anything is sent', async () => {
    const input = await openEnrolment();
    submitCode(input, '');
    expect(within(card()).getByText('MFA code is required')).toBeInTheDocument();
    // The Enter key submits the form like the button does.
    fireEvent.change(input, { target: { value: '12ab56' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Verify two-factor code' }));
    expect(within(card()).getByText('MFA code must be 6 digits')).toBeInTheDocument();
    expect(api.bodiesOf('POST auth/mfa/enroll')).toEqual([{}]);
  });

  it('a status that fails to load shows the error and a Try again that reloads it', async () => {
    api.unreachable('GET auth/mfa/status');
    api.unreachable('GET auth/mfa/status');
    api.unreachable('GET auth/mfa/status');
    api.always('GET auth/mfa/status', 200, {
      enrolled: false,
      secret: MFA_SECRET,
      enrollUri: MFA_ENROLL_URI,
    });
    renderApp('/account/profile');
    // Three network failures with the client's backoff between them (200, 400 ms) come first; a loaded CI
    // machine took over 4 s to show the panel, so wait as long as a user would.
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 15_000 });
    expect(within(card()).getByRole('alert')).toHaveTextContent(/Could not reach the server/);
    fireEvent.click(retry);
    expect(
      await screen.findByRole('button', { name: 'Enable two-factor authentication' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });
});

describe('helpers', () => {
  it('groups the secret by four and checks the code', () => {
    expect(groupSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
    expect(validateMfaCode('123456')).toEqual({});
    expect(validateMfaCode('  ')).toEqual({ token: 'MFA code is required' });
    expect(validateMfaCode('12345')).toEqual({ token: 'MFA code must be 6 digits' });
  });

  it('the QR path has one unit square per dark module', () => {
    const { modules } = create('otpauth://totp/x?secret=ABC', { errorCorrectionLevel: 'M' });
    const dark = Array.from(modules.data).filter(Boolean).length;
    expect(qrPath('otpauth://totp/x?secret=ABC').path.match(/M/g)).toHaveLength(dark);
  });
});
