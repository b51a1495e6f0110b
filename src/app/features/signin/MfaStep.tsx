// Sign-in step 3 (SPEC §2): 'Enter MFA code' with Submit code; a wrong code shows in a red 'Error' box
// (SPEC §8). POST auth/mfa/verify {login, token} (SPEC §7).
import { useState } from 'react';
import { JSON_CONTENT_TYPE, type LoginAuthenticationResponse } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { OneTimeCodeField } from '../../components/CredentialFields';
import { OutcomeForm } from '../../components/OutcomeForm';
import { useBloomClient } from '../../session/BloomClientContext';
import { useT } from '../../i18n/LocaleProvider';
import { signinStrings } from './strings';

export function MfaStep({
  login,
  onResponse,
}: {
  readonly login: string;
  readonly onResponse: (response: LoginAuthenticationResponse) => void;
}) {
  const client = useBloomClient();
  const t = useT();
  const [token, setToken] = useState('');
  // 'code' is this form's own slot for the required check: the server's issues name 'token' and so
  // land in the red 'Error' box, as SPEC §8 shows MFA errors.
  const form = useOutcomeForm(['code'] as const);

  const validate = () => (token.trim() === '' ? { code: t(signinStrings.mfaRequired) } : {});

  async function verify() {
    onResponse(
      await client.post<LoginAuthenticationResponse>(
        'auth/mfa/verify',
        { login, token: token.trim() },
        JSON_CONTENT_TYPE,
      ),
    );
  }

  return (
    <OutcomeForm
      label={t(signinStrings.mfaTitle)}
      form={form}
      submitLabel={t(signinStrings.submitCode)}
      validate={validate}
      action={verify}
    >
      <OneTimeCodeField
        id="signin-mfa"
        label={t(signinStrings.mfaCode)}
        autoFocus
        value={token}
        onValueChange={setToken}
        errorText={form.fieldErrors.code}
      />
    </OutcomeForm>
  );
}
