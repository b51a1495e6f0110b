// Patient registration form (SPEC §2 "register"; SPEC §5 first name, last name, email and password required).
// startNewUser (auth/newuser) → startNewPatient (auth/newpatient, the clinic's project from /config.json) →
// processCode → /. Without a clinic project the user gets a project of their own (auth/newproject), as
// Medplum's registration does. Server issues naming a field show under it, the rest in a red alert
// (SPEC §5, §8). reCAPTCHA runs only when a site key is configured.
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import type { LoginAuthenticationResponse } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { AuthFormCard } from '../../components/AuthFormCard';
import { useAppConfig } from '../../components/AppConfigContext';
import { validateEmail } from '../../components/emailValidation';
import { fieldErrorProps, OutcomeForm } from '../../components/OutcomeForm';
import { useBloomClient } from '../../session/BloomClientContext';
import { signInRedirectUri } from '../../components/signInRedirectUri';
import type { Message } from '../../i18n/catalog';
import { translate } from '../../i18n/i18n';
import { useT } from '../../i18n/LocaleProvider';
import { getRecaptchaToken } from './recaptcha';
import { registerStrings as s } from './strings';

const fields = ['firstName', 'lastName', 'email', 'password'] as const;
type Field = (typeof fields)[number];
type Values = Record<Field, string>;

const labels: Record<Field, Message> = {
  firstName: s.firstName,
  lastName: s.lastName,
  email: s.email,
  password: s.password,
};

const required: Record<Field, Message> = {
  firstName: s.firstNameRequired,
  lastName: s.lastNameRequired,
  email: s.emailRequired,
  password: s.passwordRequired,
};

/** Required-field and email checks before anything is sent. */
export function validateRegistration(values: Values): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const field of fields) {
    if (values[field].trim() === '') errors[field] = translate(required[field]);
  }
  // An empty email keeps this form's own 'required' text; a malformed one gets the shared check's.
  const emailProblem = validateEmail(values.email);
  if (emailProblem && !errors.email) errors.email = emailProblem;
  return errors;
}

function requireCode(response: LoginAuthenticationResponse): string {
  if (!response.code) throw new Error(translate(s.noCode));
  return response.code;
}

export function RegisterPage() {
  const config = useAppConfig();
  const client = useBloomClient();
  const navigate = useNavigate();
  const t = useT();
  const [values, setValues] = useState<Values>({ firstName: '', lastName: '', email: '', password: '' });
  const form = useOutcomeForm([...fields, 'projectId'] as const);
  const errors = form.fieldErrors;

  async function register() {
    const { projectId, clientId, recaptchaSiteKey } = config;
    const firstName = values.firstName.trim();
    const lastName = values.lastName.trim();
    const recaptchaToken = recaptchaSiteKey ? await getRecaptchaToken(recaptchaSiteKey) : undefined;
    const user = await client.startNewUser({
      firstName,
      lastName,
      email: values.email.trim(),
      password: values.password,
      remember: false,
      projectId,
      clientId,
      recaptchaSiteKey,
      recaptchaToken,
    });
    const finished = projectId
      ? await client.startNewPatient({ login: user.login, projectId })
      : await client.startNewProject({ login: user.login, projectName: `${firstName} ${lastName}` });
    await client.processCode(requireCode(finished), { redirectUri: signInRedirectUri() });
    navigate('/', { replace: true });
  }

  function field(name: Field, extra: { type?: string; autoComplete: string; autoFocus?: boolean }) {
    return (
      <TextField
        id={`register-${name}`}
        name={name}
        label={t(labels[name])}
        required
        fullWidth
        type={extra.type ?? 'text'}
        autoComplete={extra.autoComplete}
        autoFocus={extra.autoFocus}
        value={values[name]}
        onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
        {...fieldErrorProps(errors[name])}
      />
    );
  }

  return (
    <AuthFormCard title={t(s.title)} subtitle={t(s.subtitle)} width={450}>
      <title>{t(s.pageTitle)}</title>
      <OutcomeForm
        label={t(s.form)}
        form={form}
        alertFields={['projectId']}
        submitLabel={t(s.submit)}
        validate={() => validateRegistration(values)}
        action={register}
        footer={
          <Typography variant="body2" align="center">
            {t(s.haveAccount)}{' '}
            <Link component={RouterLink} to="/signin">
              {t(s.logIn)}
            </Link>
          </Typography>
        }
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {field('firstName', { autoComplete: 'given-name', autoFocus: true })}
          {field('lastName', { autoComplete: 'family-name' })}
        </Stack>
        {field('email', { type: 'email', autoComplete: 'email' })}
        {field('password', { type: 'password', autoComplete: 'new-password' })}
      </OutcomeForm>
    </AuthFormCard>
  );
}
