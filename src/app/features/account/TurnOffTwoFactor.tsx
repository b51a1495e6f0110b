// Turning two-step sign-in off (SPEC §2 account/profile, §5 required fields, §8 errors): POST
// auth/mfa/disable {token, password}. The server wants a current code and, so that a stolen session
// cannot drop the second factor, the current password; the form asks for both and refuses to send
// either empty. The server's issues show under their fields ('Incorrect password', 'Invalid MFA
// token'), anything else in the red alert.
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { JSON_CONTENT_TYPE } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { OneTimeCodeField, PasswordField } from '../../components/CredentialFields';
import { OutcomeForm } from '../../components/OutcomeForm';
import { useBloomClient } from '../../session/BloomClientContext';
import { translate } from '../../i18n/i18n';
import { useT } from '../../i18n/LocaleProvider';
import { validateMfaCode } from './mfaCode';
import { accountStrings as s } from './strings';

/** The English label of the button and form. */
export const TURN_OFF_LABEL = s.turnOff.message;

export function validateTurnOff(password: string, code: string): { password?: string; token?: string } {
  return {
    ...(password === '' ? { password: translate(s.passwordRequired) } : {}),
    ...validateMfaCode(code),
  };
}

export interface TurnOffTwoFactorProps {
  /** Called once the server has turned MFA off. */
  readonly onTurnedOff: () => void;
}

export function TurnOffTwoFactor({ onTurnedOff }: TurnOffTwoFactorProps) {
  const client = useBloomClient();
  const t = useT();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const form = useOutcomeForm(['password', 'token'] as const);

  if (!open) {
    return (
      <Button variant="outlined" color="error" sx={{ alignSelf: 'flex-start' }} onClick={() => setOpen(true)}>
        {t(s.turnOff)}
      </Button>
    );
  }

  async function turnOff() {
    await client.post('auth/mfa/disable', { password, token: code.trim() }, JSON_CONTENT_TYPE);
    onTurnedOff();
  }

  function cancel() {
    form.setFieldErrors({});
    setPassword('');
    setCode('');
    setOpen(false);
  }

  return (
    <OutcomeForm
      label={t(s.turnOff)}
      form={form}
      submitLabel={t(s.turnOff)}
      validate={() => validateTurnOff(password, code)}
      action={turnOff}
      spacing={2}
      footer={
        <Button variant="text" fullWidth onClick={cancel} disabled={form.submitting}>
          {t(s.cancel)}
        </Button>
      }
    >
      <Typography>{t(s.turnOffIntro)}</Typography>
      <PasswordField
        id="mfa-disable-password"
        label={t(s.currentPassword)}
        autoComplete="current-password"
        // The button that opened the form is gone: keyboard focus moves on to the first field.
        autoFocus
        value={password}
        onValueChange={setPassword}
        errorText={form.fieldErrors.password}
      />
      <OneTimeCodeField
        id="mfa-disable-code"
        label={t(s.codeFromApp)}
        value={code}
        onValueChange={setCode}
        errorText={form.fieldErrors.token}
      />
    </OutcomeForm>
  );
}
