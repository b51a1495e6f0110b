// Sign-in step 1 (SPEC §2): Email with Next and an optional Register link. auth/method tells whether the
// email's domain signs in with an external identity provider (SPEC §4); only then an external sign-in
// button and an 'or' divider appear, the password route staying open below them.
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { JSON_CONTENT_TYPE } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { useAppConfig } from '../../components/AppConfigContext';
import { validateEmail } from '../../components/emailValidation';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useBloomClient } from '../../session/BloomClientContext';
import { signInRedirectUri } from './signInRedirectUri';

interface AuthMethod {
  readonly domain?: string;
  readonly authorizeUrl?: string;
}

export interface EmailStepProps {
  readonly showRegister: boolean;
  readonly onPassword: (email: string) => void;
}

export function EmailStep({ showRegister, onPassword }: EmailStepProps) {
  const client = useBloomClient();
  const { clientId } = useAppConfig();
  const [email, setEmail] = useState('');
  const [external, setExternal] = useState<Required<AuthMethod>>();
  const form = useOutcomeForm(['email'] as const);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = validateEmail(email);
    if (invalid) {
      form.setFieldErrors({ email: invalid });
      return;
    }
    const trimmed = email.trim();
    await form.run(async () => {
      const method = await client.post<AuthMethod>(
        'auth/method',
        { email: trimmed, ...(clientId ? { clientId } : {}) },
        JSON_CONTENT_TYPE,
      );
      if (method?.authorizeUrl && method.domain) {
        setExternal({ domain: method.domain, authorizeUrl: method.authorizeUrl });
      } else {
        onPassword(trimmed);
      }
    });
  }

  async function signInExternally(method: Required<AuthMethod>) {
    await form.run(() =>
      client.signInWithExternalAuth(method.authorizeUrl, clientId ?? '', signInRedirectUri(), {
        clientId,
        domain: method.domain,
      }),
    );
  }

  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Sign in">
      <Stack spacing={2.5}>
        <ErrorAlert message={form.message} />
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
          onChange={(event) => {
            setEmail(event.target.value);
            setExternal(undefined);
          }}
          error={form.fieldErrors.email !== undefined}
          helperText={form.fieldErrors.email}
        />
        {external ? (
          <>
            <Button variant="contained" size="large" fullWidth onClick={() => signInExternally(external)}>
              Sign in with {external.domain}
            </Button>
            <Divider>or</Divider>
            <Button variant="outlined" size="large" fullWidth onClick={() => onPassword(email.trim())}>
              Sign in with a password
            </Button>
          </>
        ) : (
          <Button type="submit" variant="contained" size="large" fullWidth loading={form.submitting}>
            Next
          </Button>
        )}
        {showRegister && (
          <Typography variant="body2" align="center">
            New to Bloom?{' '}
            <Link component={RouterLink} to="/register">
              Register
            </Link>
          </Typography>
        )}
      </Stack>
    </form>
  );
}
