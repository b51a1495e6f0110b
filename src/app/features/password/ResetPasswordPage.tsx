// Forgot password: POST auth/resetpassword {email}. The server emails a link to
// /setpassword/{id}/{secret} and never says whether the email exists, so neither does this screen.
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { JSON_CONTENT_TYPE } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { AuthFormCard } from '../../components/AuthFormCard';
import { validateEmail } from '../../components/emailValidation';
import { fieldErrorProps, OutcomeForm } from '../../components/OutcomeForm';
import { useBloomClient } from '../../session/BloomClientContext';

export function ResetPasswordPage() {
  const client = useBloomClient();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const form = useOutcomeForm(['email'] as const);

  function validate() {
    const invalid = validateEmail(email);
    return invalid ? { email: invalid } : {};
  }

  async function requestReset() {
    await client.post('auth/resetpassword', { email: email.trim() }, JSON_CONTENT_TYPE);
    setSent(true);
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
        <OutcomeForm
          label="Reset password"
          form={form}
          submitLabel="Reset password"
          validate={validate}
          action={requestReset}
        >
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
            {...fieldErrorProps(form.fieldErrors.email)}
          />
        </OutcomeForm>
      )}
      <Typography variant="body2" align="center" sx={{ mt: 2 }}>
        <Link component={RouterLink} to="/signin">
          Back to sign in
        </Link>
      </Typography>
    </AuthFormCard>
  );
}
