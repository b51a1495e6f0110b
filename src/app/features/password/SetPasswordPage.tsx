// Set password, the target of the reset email's link /setpassword/:id/:secret:
// POST auth/setpassword {id, secret, password}; the password rules are the server's (SPEC §5 errors
// under the field).
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { JSON_CONTENT_TYPE } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { AuthFormCard } from '../../components/AuthFormCard';
import { PasswordField } from '../../components/CredentialFields';
import { OutcomeForm } from '../../components/OutcomeForm';
import { useBloomClient } from '../../session/BloomClientContext';
import { useT } from '../../i18n/LocaleProvider';
import { passwordStrings as s } from './strings';

export function SetPasswordPage() {
  const client = useBloomClient();
  const t = useT();
  const { id = '', secret = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState(false);
  const form = useOutcomeForm(['password', 'confirmPassword'] as const);

  function validate() {
    if (password === '') return { password: t(s.passwordRequired) };
    if (confirm !== password) return { confirmPassword: t(s.mismatch) };
    return {};
  }

  async function setNewPassword() {
    await client.post('auth/setpassword', { id, secret, password }, JSON_CONTENT_TYPE);
    setDone(true);
  }

  return (
    <AuthFormCard title={t(s.setTitle)} width={400}>
      <title>{t(s.setPageTitle)}</title>
      {done ? (
        <Stack spacing={2}>
          <Alert severity="success">{t(s.setDone)}</Alert>
          <Button component={RouterLink} to="/signin" variant="contained" size="large" fullWidth>
            {t(s.signIn)}
          </Button>
        </Stack>
      ) : (
        <OutcomeForm
          label={t(s.setSubmit)}
          form={form}
          submitLabel={t(s.setSubmit)}
          validate={validate}
          action={setNewPassword}
          footer={
            <Link component={RouterLink} to="/signin" variant="body2" align="center">
              {t(s.backToSignIn)}
            </Link>
          }
        >
          <PasswordField
            id="setpassword-password"
            label={t(s.newPassword)}
            autoComplete="new-password"
            autoFocus
            value={password}
            onValueChange={setPassword}
            errorText={form.fieldErrors.password}
          />
          <PasswordField
            id="setpassword-confirm"
            name="confirmPassword"
            label={t(s.confirmPassword)}
            autoComplete="new-password"
            value={confirm}
            onValueChange={setConfirm}
            errorText={form.fieldErrors.confirmPassword}
          />
        </OutcomeForm>
      )}
    </AuthFormCard>
  );
}
