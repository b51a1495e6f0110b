// Turning two-step sign-in off on the two-factor card of account/profile (SPEC §2 account/profile,
// §5 required fields, §8 errors): with MFA on, 'Turn off two-step sign-in' asks for the current
// password and a code, POSTs auth/mfa/disable {password, token}, and then shows MFA as off; a wrong
// password shows the server's OperationOutcome text under the password field; an empty password is
// refused in the form and nothing is sent.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { TURN_OFF_LABEL, validateTurnOff } from '../../../../src/app/features/account/TurnOffTwoFactor';
import { outcome, type FakeApi } from '../../support/fakeApi';
import { installMariaAccountApi, MFA_ENROLL_URI, MFA_SECRET } from './mariaAccountApi';
import { renderApp } from '../../support/renderApp';

let api: FakeApi;

beforeEach(() => {
  api = installMariaAccountApi();
  api.once('GET auth/mfa/status', 200, { enrolled: true });
});

function card(): HTMLElement {
  return screen.getByRole('region', { name: 'Two-factor authentication' });
}

/** Opens the form on a card that shows MFA on; returns its two fields. */
async function openTurnOff() {
  renderApp('/account/profile');
  await screen.findByRole('region', { name: 'Two-factor authentication' });
  expect(await within(card()).findByRole('status')).toHaveTextContent('Two-factor authentication is on.');
  fireEvent.click(within(card()).getByRole('button', { name: TURN_OFF_LABEL }));
  const form = within(card()).getByRole('form', { name: TURN_OFF_LABEL });
  const password = within(form).getByLabelText(/^Current password/) as HTMLInputElement;
  const code = within(form).getByRole('textbox', { name: /^Code from your app/ }) as HTMLInputElement;
  return { form, password, code };
}

function fill(input: HTMLInputElement, value: string) {
  fireEvent.change(input, { target: { value } });
}

function submit(form: HTMLElement) {
  fireEvent.click(within(form).getByRole('button', { name: TURN_OFF_LABEL }));
}

describe('two-factor card: turn off two-step sign-in', () => {
  it('with the current password and a code: POSTs auth/mfa/disable and the card shows MFA off', async () => {
    const { form, password, code } = await openTurnOff();
    // A password field, required, that password managers fill; focus moves to it from the button.
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'current-password');
    expect(password).toBeRequired();
    expect(password).toHaveFocus();
    expect(code).toBeRequired();

    api.once('POST auth/mfa/disable', 200, {});
    // Once off, the card offers enrolment again (the server keeps a new pending secret).
    api.once('POST auth/mfa/enroll', 200, { enrolled: false, secret: MFA_SECRET, enrollUri: MFA_ENROLL_URI });
    fill(password, ' my passphrase ');
    fill(code, ' 123456 ');
    submit(form);
    await waitFor(() =>
      expect(within(card()).getByRole('status')).toHaveTextContent('Two-factor authentication is now off.'),
    );
    // The password as typed (spaces can be part of it), the code trimmed.
    expect(api.bodiesOf('POST auth/mfa/disable')).toEqual([{ password: ' my passphrase ', token: '123456' }]);
    expect(within(card()).queryByRole('form', { name: TURN_OFF_LABEL })).not.toBeInTheDocument();
    expect(within(card()).queryByRole('button', { name: TURN_OFF_LABEL })).not.toBeInTheDocument();
    expect(within(card()).getByText(/Two-factor authentication is off\./)).toBeInTheDocument();
    fireEvent.click(within(card()).getByRole('button', { name: 'Enable two-factor authentication' }));
    expect(await within(card()).findByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
  });

  it("a wrong password: the server's OperationOutcome text under the password field; MFA stays on", async () => {
    const { form, password, code } = await openTurnOff();
    api.once('POST auth/mfa/disable', 400, outcome('Incorrect password', ['password']));
    fill(password, 'not-my-password');
    fill(code, '123456');
    submit(form);
    expect(await within(form).findByText('Incorrect password')).toBeInTheDocument();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription('Incorrect password');
    expect(code).not.toHaveAttribute('aria-invalid', 'true');
    expect(within(card()).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(card()).getByRole('status')).toHaveTextContent('Two-factor authentication is on.');
    expect(api.bodiesOf('POST auth/mfa/disable')).toEqual([{ password: 'not-my-password', token: '123456' }]);
  });

  it("SPEC §8 an issue without a field (the server's own text) shows in the red 'Error' alert", async () => {
    const { form, password, code } = await openTurnOff();
    api.once('POST auth/mfa/disable', 400, outcome('MFA is not enrolled for this user'));
    fill(password, 'my passphrase');
    fill(code, '123456');
    submit(form);
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('MFA is not enrolled for this user');
    expect(alert).toHaveClass('MuiAlert-colorError');
  });

  it('SPEC §5 an empty password (or code) is refused in the form and nothing is sent', async () => {
    const { form, password, code } = await openTurnOff();
    fill(code, '123456');
    submit(form);
    expect(within(form).getByText('Password is required')).toBeInTheDocument();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    // The Enter key submits like the button; an empty code is refused too.
    fill(password, 'my passphrase');
    fill(code, '');
    fireEvent.submit(form);
    expect(within(form).getByText('MFA code is required')).toBeInTheDocument();
    expect(within(form).queryByText('Password is required')).not.toBeInTheDocument();
    expect(api.bodiesOf('POST auth/mfa/disable')).toEqual([]);
  });

  it('Cancel closes the form without a request and keeps MFA on', async () => {
    const { form, password } = await openTurnOff();
    fill(password, 'my passphrase');
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(within(card()).queryByRole('form', { name: TURN_OFF_LABEL })).not.toBeInTheDocument();
    expect(within(card()).getByRole('button', { name: TURN_OFF_LABEL })).toBeInTheDocument();
    expect(within(card()).getByRole('status')).toHaveTextContent('Two-factor authentication is on.');
    expect(api.bodiesOf('POST auth/mfa/disable')).toEqual([]);
  });
});

describe('validateTurnOff', () => {
  it('needs a password (spaces count) and a 6-digit code', () => {
    expect(validateTurnOff('pw', '123456')).toEqual({});
    expect(validateTurnOff(' ', '123456')).toEqual({});
    expect(validateTurnOff('', '123456')).toEqual({ password: 'Password is required' });
    expect(validateTurnOff('', '12ab56')).toEqual({
      password: 'Password is required',
      token: 'MFA code must be 6 digits',
    });
  });
});
