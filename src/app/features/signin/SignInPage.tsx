// Sign-in, email step (SPEC §2 "Login flow screens" 1; SPEC §4 "Email entered: the provider's auth method is
// queried"). It asks the server `POST auth/method` and shows the server's OperationOutcome when it refuses.
// The password, MFA and profile steps come with the identity issue; until then a successful answer says so
// plainly instead of pretending the user is signed in.
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

type Feedback = { severity: 'error' | 'info'; text: string } | undefined;

export function SignInPage() {
  const { baseUrl } = useAppConfig();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();
  const [feedback, setFeedback] = useState<Feedback>();
  const [submitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFeedback(undefined);
    const invalid = validateEmail(email);
    setEmailError(invalid);
    if (invalid) return;
    setSubmitting(true);
    try {
      const answer = await postAuthRequest(baseUrl, 'auth/method', { email: email.trim() });
      setFeedback({
        severity: 'info',
        text:
          typeof answer.authorizeUrl === 'string'
            ? 'This email signs in with an external provider, which Bloom does not support yet.'
            : 'Signing in with a password is not available yet.',
      });
    } catch (err) {
      if (!(err instanceof AuthRequestError)) throw err;
      const { fieldErrors, message } = splitOutcomeByField(err.outcome, ['email'] as const);
      setEmailError(fieldErrors.email);
      if (message) setFeedback({ severity: 'error', text: message });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthFormCard title="Sign in to Bloom" subtitle="Enter your email to continue." width={400}>
      <title>Sign in · Bloom</title>
      <form noValidate onSubmit={handleSubmit} aria-label="Sign in">
        <Stack spacing={2.5}>
          {feedback && (
            <Alert
              severity={feedback.severity}
              variant={feedback.severity === 'error' ? 'filled' : 'standard'}
            >
              {feedback.text}
            </Alert>
          )}
          <TextField
            id="signin-email"
            name="email"
            type="email"
            label="Email"
            autoComplete="email"
            required
            fullWidth
            autoFocus
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={emailError !== undefined}
            helperText={emailError}
          />
          <Button type="submit" variant="contained" size="large" fullWidth loading={submitting}>
            Next
          </Button>
          <Typography variant="body2" align="center">
            New to Bloom?{' '}
            <Link component={RouterLink} to="/register">
              Register
            </Link>
          </Typography>
        </Stack>
      </form>
    </AuthFormCard>
  );
}
