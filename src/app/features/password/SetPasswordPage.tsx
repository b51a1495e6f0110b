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

export function SetPasswordPage() {
  const client = useBloomClient();
  const { id = '', secret = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState(false);
  const form = useOutcomeForm(['password', 'confirmPassword'] as const);

  function validate() {
    if (password === '') return { password: 'Password is required' };
    if (confirm !== password) return { confirmPassword: 'Passwords do not match' };
    return {};
  }

  async function setNewPassword() {
    await client.post('auth/setpassword', { id, secret, password }, JSON_CONTENT_TYPE);
    setDone(true);
  }

  return (
    <AuthFormCard title="Set a new password" width={400}>
      <title>Set password · Bloom</title>
      {done ? (
        <Stack spacing={2}>
          <Alert severity="success">Your password has been set.</Alert>
          <Button component={RouterLink} to="/signin" variant="contained" size="large" fullWidth>
            Sign in
          </Button>
        </Stack>
      ) : (
        <OutcomeForm
          label="Set password"
          form={form}
          submitLabel="Set password"
          validate={validate}
          action={setNewPassword}
          footer={
            <Link component={RouterLink} to="/signin" variant="body2" align="center">
              Back to sign in
            </Link>
          }
        >
          <PasswordField
            id="setpassword-password"
            label="New password"
            autoComplete="new-password"
            autoFocus
            value={password}
            onValueChange={setPassword}
            errorText={form.fieldErrors.password}
          />
          <PasswordField
            id="setpassword-confirm"
            name="confirmPassword"
            label="Confirm new password"
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
