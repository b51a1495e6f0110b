// Patient registration form (SPEC §2 "register"; SPEC §5 first name, last name, email and password required).
// It posts `auth/newuser` (SPEC §7) and shows the server's OperationOutcome: issues naming a field under that
// field, the rest in a red alert (SPEC §5, §8). Creating the patient and signing in (auth/newpatient and the
// token exchange) come with the identity issue, so a successful answer says that plainly.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { AuthRequestError, postAuthRequest } from '../../api/postAuthRequest';
import { splitOutcomeByField } from '../../api/outcomeFieldErrors';
import { AuthFormCard } from '../../components/AuthFormCard';
import { useAppConfig } from '../../components/AppConfigContext';
import { validateEmail } from '../../components/emailValidation';

const fields = ['firstName', 'lastName', 'email', 'password'] as const;
type Field = (typeof fields)[number];
type Values = Record<Field, string>;
type Feedback = { severity: 'error' | 'info'; text: string } | undefined;

const labels: Record<Field, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  password: 'Password',
};

/** Required-field and email checks before anything is sent. */
export function validateRegistration(values: Values): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const field of fields) {
    if (values[field].trim() === '') errors[field] = `${labels[field]} is required`;
  }
  const emailProblem = validateEmail(values.email);
  if (emailProblem) errors.email = emailProblem;
  return errors;
}

export function RegisterPage() {
  const { baseUrl } = useAppConfig();
  const [values, setValues] = useState<Values>({ firstName: '', lastName: '', email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [feedback, setFeedback] = useState<Feedback>();
  const [submitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(undefined);
    const problems = validateRegistration(values);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setSubmitting(true);
    try {
      await postAuthRequest(baseUrl, 'auth/newuser', {
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        email: values.email.trim(),
        password: values.password,
        remember: false,
      });
      setFeedback({
        severity: 'info',
        text: 'The server accepted your details, but finishing registration in the app is not available yet.',
      });
    } catch (err) {
      if (!(err instanceof AuthRequestError)) throw err;
      const { fieldErrors, message } = splitOutcomeByField(err.outcome, fields);
      setErrors(fieldErrors);
      if (message) setFeedback({ severity: 'error', text: message });
    } finally {
      setSubmitting(false);
    }
  }

  function field(name: Field, extra: { type?: string; autoComplete: string; autoFocus?: boolean }) {
    return (
      <TextField
        id={`register-${name}`}
        name={name}
        label={labels[name]}
        required
        fullWidth
        type={extra.type ?? 'text'}
        autoComplete={extra.autoComplete}
        autoFocus={extra.autoFocus}
        value={values[name]}
        onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
        error={errors[name] !== undefined}
        helperText={errors[name]}
      />
    );
  }

  return (
    <AuthFormCard
      title="Register with Bloom"
      subtitle="Create your account to follow your pregnancy care."
      width={450}
    >
      <title>Register · Bloom</title>
      <form noValidate onSubmit={handleSubmit} aria-label="Register">
        <Stack spacing={2.5}>
          {feedback && (
            <Alert
              severity={feedback.severity}
              variant={feedback.severity === 'error' ? 'filled' : 'standard'}
            >
              {feedback.text}
            </Alert>
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {field('firstName', { autoComplete: 'given-name', autoFocus: true })}
            {field('lastName', { autoComplete: 'family-name' })}
          </Stack>
          {field('email', { type: 'email', autoComplete: 'email' })}
          {field('password', { type: 'password', autoComplete: 'new-password' })}
          <Button type="submit" variant="contained" size="large" fullWidth loading={submitting}>
            Create account
          </Button>
          <Typography variant="body2" align="center">
            Already have an account?{' '}
            <Link component={RouterLink} to="/signin">
              Log in
            </Link>
          </Typography>
        </Stack>
      </form>
    </AuthFormCard>
  );
}
