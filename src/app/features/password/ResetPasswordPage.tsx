// Forgot password (issue #3 App): POST auth/resetpassword {email}. The server emails a link to
// /setpassword/{id}/{secret} and never says whether the email exists, so neither does this screen.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { JSON_CONTENT_TYPE } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { AuthFormCard } from '../../components/AuthFormCard';
import { validateEmail } from '../../components/emailValidation';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useBloomClient } from '../../session/BloomClientContext';

export function ResetPasswordPage() {
  const client = useBloomClient();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const form = useOutcomeForm(['email'] as const);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = validateEmail(email);
    if (invalid) {
      form.setFieldErrors({ email: invalid });
      return;
    }
    await form.run(async () => {
      await client.post('auth/resetpassword', { email: email.trim() }, JSON_CONTENT_TYPE);
      setSent(true);
    });
  }

  return (
    <AuthFormCard
      title="Reset your password"
      subtitle="We will email you a link to set a new one."
      width={400}
    >
      <title>Reset password · Bloom</title>
      {sent ? (
        <Alert severity="success">
          If an account uses that email, a reset link is on its way. Check your email.
        </Alert>
      ) : (
        <form noValidate onSubmit={handleSubmit} aria-label="Reset password">
          <Stack spacing={2.5}>
            <ErrorAlert message={form.message} />
            <TextField
              id="reset-email"
              name="email"
              type="email"
              label="Email"
              autoComplete="email"
              required
              fullWidth
              autoFocus
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              error={form.fieldErrors.email !== undefined}
              helperText={form.fieldErrors.email}
            />
            <Button type="submit" variant="contained" size="large" fullWidth loading={form.submitting}>
              Reset password
            </Button>
          </Stack>
        </form>
      )}
      <Typography variant="body2" align="center" sx={{ mt: 2 }}>
        <Link component={RouterLink} to="/signin">
          Back to sign in
        </Link>
      </Typography>
    </AuthFormCard>
  );
}
