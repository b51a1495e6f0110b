// The signed-out screens (landing, sign-in steps, register, password reset) and the account screens
// show no English in Spanish (the scan: ../support/untranslated.ts). Signed-out screens start in the
// device's last choice (i18n.ts initialLocale), so each rendering stores the language it is scanned in.
import { act, fireEvent, screen, within } from '@testing-library/react';
import { ProviderPage } from '../../../src/app/features/account/ProviderPage';
import { accountStrings } from '../../../src/app/features/account/strings';
import { passwordStrings } from '../../../src/app/features/password/strings';
import { signinStrings } from '../../../src/app/features/signin/strings';
import { signoutStrings } from '../../../src/app/features/signout/strings';
import { activateLocale, activeLocale, LOCALE_STORAGE_KEY, translate } from '../../../src/app/i18n/i18n';
import { AccountProviderDocument } from '../../../src/graphql';
import { installMariaAccountApi, MFA_ENROLL_URI, MFA_SECRET } from '../features/account/mariaAccountApi';
import { installFakeApi, outcome, type FakeApi } from '../support/fakeApi';
import { renderApp } from '../support/renderApp';
import { renderScreen, type ScreenMock } from '../support/renderScreen';
import { describeUntranslated, type ScreenCase } from '../support/untranslated';

/** Names, addresses, scopes and codes of the fixtures, and each language's own name in the switch. */
const SAME_IN_BOTH = [
  'English',
  'Español',
  '|',
  // A required field's mark, MUI's zero-width space, the empty gender option, avatar initials.
  '*',
  '\u200b',
  '—',
  'J',
  'M',
  'Maria',
  'Garcia',
  'maria@bloom.example',
  'Maria 0',
  'Maria 1',
  'Bloom Clinic',
  'Clinic 1',
  'openid',
  'patient/*.read',
  'Dr. Jordan Ellis',
  '+1-217-555-0100',
  'Dr. Lily Chen MD',
  'General practitioner, prenatal care',
  '+1-217-555-0142',
  '+1-217-555-0199',
  '200 Blossom Avenue, Springfield, IL 62701',
  'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
  // The server's own message (OperationOutcome text) is shown as the server sent it.
  'Email or password is invalid',
  // The same word in Spanish (a red alert's title where the screen gives none).
  'Error',
];

/** A fresh fake API, with the language being scanned stored as this device's choice. */
function signedOutApi(): FakeApi {
  const api = installFakeApi();
  localStorage.setItem(LOCALE_STORAGE_KEY, activeLocale());
  return api;
}

function signedInApi(mfa: { enrolled: boolean }): FakeApi {
  const api = installMariaAccountApi();
  localStorage.setItem(LOCALE_STORAGE_KEY, activeLocale());
  api.always('GET auth/mfa/status', 200, { ...mfa, secret: MFA_SECRET, enrollUri: MFA_ENROLL_URI });
  return api;
}

function form(): HTMLFormElement {
  const element = document.querySelector('form');
  if (!element) throw new Error('no form on the screen');
  return element;
}

function type(selector: string, value: string): void {
  const input = document.querySelector(selector);
  if (!input) throw new Error(`no ${selector}`);
  fireEvent.change(input, { target: { value } });
}

/** From the sign-in email step to the password step, then submits the password with the given answer. */
async function signInWith(api: FakeApi, answer: { status: number; body: unknown }, path = '/signin') {
  api.once('POST auth/method', 200, {});
  api.once('POST auth/login', answer.status, answer.body);
  renderApp(path);
  await screen.findByRole('form');
  type('#signin-email', 'maria@bloom.example');
  fireEvent.submit(form());
  await screen.findByLabelText(new RegExp(translate(signinStrings.password)));
  type('#signin-password', 'bloom-demo');
  fireEvent.submit(form());
}

const memberships = [0, 1].map((i) => ({
  resourceType: 'ProjectMembership',
  id: `m${i}`,
  project: { reference: `Project/p${i}`, display: i === 0 ? 'Bloom Clinic' : `Clinic ${i}` },
  user: { reference: 'User/u1' },
  profile: { reference: `Patient/pt${i}`, display: `Maria ${i}` },
}));

function providerMock(generalPractitioner: unknown[]): ScreenMock {
  return {
    request: { query: AccountProviderDocument, variables: { id: 'maria-1' } },
    result: {
      data: {
        Patient: {
          __typename: 'Patient',
          resourceType: 'Patient',
          id: 'maria-1',
          generalPractitioner,
          managingOrganization: {
            reference: 'Organization/clinic',
            display: null,
            resource: {
              __typename: 'Organization',
              resourceType: 'Organization',
              id: 'clinic',
              name: 'Bloom Clinic',
              telecom: [{ system: 'phone', value: '+1-217-555-0199' }],
              address: [
                { line: ['200 Blossom Avenue'], city: 'Springfield', state: 'IL', postalCode: '62701' },
              ],
            },
          },
        },
      },
    },
  };
}

const drChen = {
  reference: 'Practitioner/chen',
  display: null,
  resource: {
    __typename: 'Practitioner',
    resourceType: 'Practitioner',
    id: 'chen',
    name: [{ text: null, prefix: ['Dr.'], given: ['Lily'], family: 'Chen', suffix: ['MD'] }],
    photo: [{ contentType: 'image/svg+xml', url: null, data: 'PHN2Zy8+', title: 'Portrait' }],
    telecom: [{ system: 'phone', value: '+1-217-555-0142' }],
    qualification: [{ code: { text: 'General practitioner, prenatal care' } }],
  },
};

const SIGNED_OUT: readonly ScreenCase[] = [
  {
    name: 'landing page with the language switch',
    render: () => {
      signedOutApi();
      renderApp('/');
    },
    ready: () => screen.findByRole('group'),
  },
  {
    name: 'sign-in email step with the language switch',
    render: () => {
      signedOutApi();
      renderApp('/signin');
    },
    ready: () => screen.findByRole('group'),
  },
  {
    name: 'sign-in email step offering an external identity provider',
    render: () => {
      const api = signedOutApi();
      api.once('POST auth/method', 200, {
        domain: 'example.org',
        authorizeUrl: 'https://idp.example.org/auth',
      });
      renderApp('/signin');
    },
    ready: async () => {
      await screen.findByRole('form');
      type('#signin-email', 'maria@example.org');
      fireEvent.submit(form());
      return screen.findByRole('separator');
    },
  },
  {
    name: 'sign-in password step with the required-password error',
    render: () => {
      const api = signedOutApi();
      api.once('POST auth/method', 200, {});
      renderApp('/signin');
    },
    ready: async () => {
      await screen.findByRole('form');
      type('#signin-email', 'maria@bloom.example');
      fireEvent.submit(form());
      await screen.findByLabelText(new RegExp(translate(signinStrings.password)));
      fireEvent.submit(form());
      return screen.findByText(translate(signinStrings.passwordRequired));
    },
  },
  {
    name: "sign-in password step with the server's error",
    render: () =>
      void signInWith(signedOutApi(), { status: 400, body: outcome('Email or password is invalid') }),
    ready: () => screen.findByText('Email or password is invalid'),
  },
  {
    name: 'sign-in MFA step with the required-code error',
    render: () => void signInWith(signedOutApi(), { status: 200, body: { login: 'L1', mfaRequired: true } }),
    ready: async () => {
      await screen.findByRole('textbox', { name: new RegExp(`^${translate(signinStrings.mfaCode)}`) });
      fireEvent.submit(form());
      return screen.findByText(translate(signinStrings.mfaRequired));
    },
  },
  {
    name: 'sign-in choose-profile step',
    render: () => void signInWith(signedOutApi(), { status: 200, body: { login: 'L1', memberships } }),
    ready: () => screen.findByText('Maria 1'),
  },
  {
    name: 'sign-in choose-profile step with nothing found',
    render: () => void signInWith(signedOutApi(), { status: 200, body: { login: 'L1', memberships } }),
    ready: async () => {
      await screen.findByRole('searchbox');
      type('#signin-profile-search', 'zzz');
      return screen.findByText(translate(signinStrings.nothingFound));
    },
  },
  {
    name: 'sign-in create-project step with the required-name error',
    render: () => void signInWith(signedOutApi(), { status: 200, body: { login: 'L1' } }),
    ready: async () => {
      await screen.findByLabelText(new RegExp(translate(signinStrings.projectName)));
      fireEvent.submit(form());
      return screen.findByText(translate(signinStrings.projectNameRequired));
    },
  },
  {
    name: 'sign-in choose-scope step',
    render: () =>
      void signInWith(
        signedOutApi(),
        { status: 200, body: { login: 'L1', code: 'C1' } },
        '/signin?scope=openid%20patient/*.read',
      ),
    ready: () => screen.findByText('patient/*.read'),
  },
  {
    name: 'sign-in success step while the code is exchanged',
    render: () => {
      const api = signedOutApi();
      // The token exchange stays pending: the screen shows its progress.
      const answer = api.fetch;
      globalThis.fetch = ((input: string, init?: RequestInit) =>
        input.endsWith('oauth2/token')
          ? new Promise<Response>(() => undefined)
          : answer(input, init)) as typeof fetch;
      renderApp('/signin?code=C1');
    },
    ready: () => screen.findByRole('progressbar', { name: translate(signinStrings.signingIn) }),
  },
  {
    name: 'register with the required-field errors',
    render: () => {
      signedOutApi();
      renderApp('/register');
    },
    ready: async () => {
      await screen.findByRole('form');
      fireEvent.submit(form());
      return screen.findAllByText(/./, { selector: '.Mui-error' });
    },
  },
  {
    name: 'forgot password form',
    render: () => {
      signedOutApi();
      renderApp('/resetpassword');
    },
    ready: () => screen.findByRole('form'),
  },
  {
    name: 'forgot password, link sent',
    render: () => {
      const api = signedOutApi();
      api.once('POST auth/resetpassword', 200, {});
      renderApp('/resetpassword');
    },
    ready: async () => {
      await screen.findByRole('form');
      type('#reset-email', 'maria@bloom.example');
      fireEvent.submit(form());
      return screen.findByRole('alert');
    },
  },
  {
    name: 'set password with the mismatch error',
    render: () => {
      signedOutApi();
      renderApp('/setpassword/id1/secret1');
    },
    ready: async () => {
      await screen.findByRole('form');
      type('#setpassword-password', 'new-password-1');
      type('#setpassword-confirm', 'new-password-2');
      fireEvent.submit(form());
      return screen.findByText(translate(passwordStrings.mismatch));
    },
  },
  {
    name: 'set password done',
    render: () => {
      const api = signedOutApi();
      api.once('POST auth/setpassword', 200, {});
      renderApp('/setpassword/id1/secret1');
    },
    ready: async () => {
      await screen.findByRole('form');
      type('#setpassword-password', 'new-password-1');
      type('#setpassword-confirm', 'new-password-1');
      fireEvent.submit(form());
      return screen.findByRole('alert');
    },
  },
  {
    name: 'signed out, the notice on the landing page',
    render: () => {
      const api = signedInApi({ enrolled: false });
      api.once('POST auth/logout', 200, {});
      renderApp('/signout');
    },
    ready: () =>
      screen.findByText(
        new RegExp(`${translate(signoutStrings.signedOut)}|${translate(signoutStrings.offline)}`),
      ),
  },
];

const ACCOUNT: readonly ScreenCase[] = [
  {
    name: 'account profile with the form, and two-factor sign-in off',
    render: () => {
      signedInApi({ enrolled: false });
      renderApp('/account/profile');
    },
    ready: async () => {
      await screen.findByDisplayValue('Garcia');
      return screen.findByRole('button', { name: translate(accountStrings.enable) });
    },
  },
  {
    name: 'two-factor enrolment with the QR code and a code error',
    render: () => {
      const api = signedInApi({ enrolled: false });
      api.once('POST auth/mfa/enroll', 200, {
        enrolled: false,
        secret: MFA_SECRET,
        enrollUri: MFA_ENROLL_URI,
      });
      renderApp('/account/profile');
    },
    ready: async () => {
      fireEvent.click(await screen.findByRole('button', { name: translate(accountStrings.enable) }));
      await screen.findByRole('img', { name: translate(accountStrings.qrLabel) });
      type('#mfa-enrol-code', '12');
      fireEvent.submit(screen.getByRole('form', { name: translate(accountStrings.verifyForm) }));
      return screen.findByText(translate(accountStrings.codeSixDigits));
    },
  },
  {
    name: 'two-factor sign-in on, turning it off with the required-field errors',
    render: () => {
      signedInApi({ enrolled: true });
      renderApp('/account/profile');
    },
    ready: async () => {
      fireEvent.click(await screen.findByRole('button', { name: translate(accountStrings.turnOff) }));
      fireEvent.submit(screen.getByRole('form', { name: translate(accountStrings.turnOff) }));
      return screen.findByText(translate(accountStrings.passwordRequired));
    },
  },
  {
    name: 'provider page with a general practitioner',
    render: () => renderScreen(<ProviderPage />, [providerMock([drChen])]),
    ready: () => screen.findByRole('region', { name: 'Dr. Lily Chen MD' }),
  },
  {
    name: 'provider page with the placeholder doctor',
    render: () => renderScreen(<ProviderPage />, [providerMock([])]),
    ready: () => screen.findByRole('region', { name: 'Dr. Jordan Ellis' }),
  },
];

describeUntranslated('signed-out screens show no English in Spanish', SIGNED_OUT, SAME_IN_BOTH);
describeUntranslated('account screens show no English in Spanish', ACCOUNT, SAME_IN_BOTH);

describe('the language switch of the signed-out screens', () => {
  afterEach(() => activateLocale('en'));

  it.each(['/', '/signin'])(
    '%s: Español switches the screen at once and is remembered on this device',
    async (path) => {
      await act(() => activateLocale('en'));
      signedOutApi();
      renderApp(path);
      const group = await screen.findByRole('group', { name: 'Language' });
      const english = within(group).getByRole('button', { name: 'English' });
      const spanish = within(group).getByRole('button', { name: 'Español' });
      expect(english).toHaveAttribute('aria-pressed', 'true');
      expect(spanish).toHaveAttribute('aria-pressed', 'false');
      expect(spanish).toHaveAttribute('lang', 'es');

      fireEvent.click(spanish);
      expect(await screen.findByRole('group', { name: 'Idioma' })).toBeInTheDocument();
      expect(spanish).toHaveAttribute('aria-pressed', 'true');
      expect(document.documentElement.lang).toBe('es');
      expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('es');
    },
  );

  it('the next visit on this device starts in the remembered language', async () => {
    await act(() => activateLocale('en'));
    signedOutApi();
    localStorage.setItem(LOCALE_STORAGE_KEY, 'es');
    renderApp('/');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Una atención que crece con usted' }),
    ).toBeInTheDocument();
  });
});
