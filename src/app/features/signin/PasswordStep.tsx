// Sign-in step 2 (SPEC §2): Password with a Forgot password link, Remember me and Sign in. Wrong email and
// wrong password get the server's one message (SPEC §8), shown in a red alert.
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { LoginAuthenticationResponse } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { useAppConfig } from '../../components/AppConfigContext';
import { PasswordField } from '../../components/CredentialFields';
import { OutcomeForm } from '../../components/OutcomeForm';
import { useBloomClient } from '../../session/BloomClientContext';
import { useT } from '../../i18n/LocaleProvider';
import { signinStrings } from './strings';

export interface PasswordStepProps {
  readonly email: string;
  readonly scope: string | undefined;
  readonly onResponse: (response: LoginAuthenticationResponse) => void;
  readonly onChangeEmail: () => void;
}

export function PasswordStep({ email, scope, onResponse, onChangeEmail }: PasswordStepProps) {
  const client = useBloomClient();
  const { clientId } = useAppConfig();
  const t = useT();
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const form = useOutcomeForm(['email', 'password'] as const);

  const validate = () => (password === '' ? { password: t(signinStrings.passwordRequired) } : {});

  async function signIn() {
    onResponse(await client.startLogin({ email, password, remember, clientId, scope }));
  }

  return (
    <OutcomeForm
      label={t(signinStrings.signIn)}
      form={form}
      alertFields={['email']}
      submitLabel={t(signinStrings.signIn)}
      validate={validate}
      action={signIn}
    >
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {t(signinStrings.signingInAs)} <strong>{email}</strong>.{' '}
        <Link component="button" type="button" onClick={onChangeEmail}>
          {t(signinStrings.change)}
        </Link>
      </Typography>
      <PasswordField
        id="signin-password"
        label={t(signinStrings.password)}
        autoComplete="current-password"
        autoFocus
        value={password}
        onValueChange={setPassword}
        errorText={form.fieldErrors.password}
      />
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <FormControlLabel
          control={<Checkbox checked={remember} onChange={(event) => setRemember(event.target.checked)} />}
          label={t(signinStrings.rememberMe)}
        />
        <Link component={RouterLink} to="/resetpassword" variant="body2">
          {t(signinStrings.forgotPassword)}
        </Link>
      </Stack>
    </OutcomeForm>
  );
}
