// Sign-in step 3 (SPEC §2): 'Enter MFA code' with Submit code; a wrong code shows in a red 'Error' box
// (SPEC §8). POST auth/mfa/verify {login, token} (SPEC §7).
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { JSON_CONTENT_TYPE, type LoginAuthenticationResponse } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useBloomClient } from '../../session/BloomClientContext';

export function MfaStep({
  login,
  onResponse,
}: {
  readonly login: string;
  readonly onResponse: (response: LoginAuthenticationResponse) => void;
}) {
  const client = useBloomClient();
  const [token, setToken] = useState('');
  const form = useOutcomeForm([] as const);
  const [required, setRequired] = useState<string>();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = token.trim();
    setRequired(code === '' ? 'MFA code is required' : undefined);
    if (code === '') return;
    await form.run(async () => {
      onResponse(
        await client.post<LoginAuthenticationResponse>(
          'auth/mfa/verify',
          { login, token: code },
          JSON_CONTENT_TYPE,
        ),
      );
    });
  }

  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Enter MFA code">
      <Stack spacing={2.5}>
        <ErrorAlert message={form.message} />
        <TextField
          id="signin-mfa"
          name="token"
          label="MFA code"
          required
          fullWidth
          autoFocus
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
          value={token}
          onChange={(event) => setToken(event.target.value)}
          error={required !== undefined}
          helperText={required}
        />
        <Button type="submit" variant="contained" size="large" fullWidth loading={form.submitting}>
          Submit code
        </Button>
      </Stack>
    </form>
  );
}
