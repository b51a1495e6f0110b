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
import { useT } from '../../i18n/LocaleProvider';
import { passwordStrings as s } from './strings';

export function ResetPasswordPage() {
  const client = useBloomClient();
  const t = useT();
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
    <AuthFormCard title={t(s.resetTitle)} subtitle={t(s.resetSubtitle)} width={400}>
      <title>{t(s.resetPageTitle)}</title>
      {sent ? (
        <Alert severity="success">{t(s.resetSent)}</Alert>
      ) : (
        <OutcomeForm
          label={t(s.resetSubmit)}
          form={form}
          submitLabel={t(s.resetSubmit)}
          validate={validate}
          action={requestReset}
        >
          <TextField
            id="reset-email"
            name="email"
            type="email"
            label={t(s.email)}
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
          {t(s.backToSignIn)}
        </Link>
      </Typography>
    </AuthFormCard>
  );
}
