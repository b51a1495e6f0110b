// Sign-in step 1 (SPEC §2): Email with Next and an optional Register link. auth/method tells whether the
// email's domain signs in with an external identity provider (SPEC §4); only then an external sign-in
// button and an 'or' divider appear, the password route staying open below them.
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { JSON_CONTENT_TYPE } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { useAppConfig } from '../../components/AppConfigContext';
import { validateEmail } from '../../components/emailValidation';
import { fieldErrorProps, OutcomeForm } from '../../components/OutcomeForm';
import { useBloomClient } from '../../session/BloomClientContext';
import { useT } from '../../i18n/LocaleProvider';
import { signinStrings } from './strings';
import { signInRedirectUri } from '../../components/signInRedirectUri';

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
  const t = useT();
  const [email, setEmail] = useState('');
  const [external, setExternal] = useState<Required<AuthMethod>>();
  const form = useOutcomeForm(['email'] as const);

  function validate() {
    const invalid = validateEmail(email);
    return invalid ? { email: invalid } : {};
  }

  async function lookUpMethod() {
    const trimmed = email.trim();
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
    <OutcomeForm
      label={t(signinStrings.signIn)}
      form={form}
      submitLabel={external ? null : t(signinStrings.next)}
      validate={validate}
      action={lookUpMethod}
      footer={
        showRegister && (
          <Typography variant="body2" align="center">
            {t(signinStrings.newToBloom)}{' '}
            <Link component={RouterLink} to="/register">
              {t(signinStrings.register)}
            </Link>
          </Typography>
        )
      }
    >
      <TextField
        id="signin-email"
        name="email"
        type="email"
        label={t(signinStrings.email)}
        autoComplete="email"
        required
        fullWidth
        autoFocus
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          setExternal(undefined);
        }}
        {...fieldErrorProps(form.fieldErrors.email)}
      />
      {external && (
        <>
          <Button variant="contained" size="large" fullWidth onClick={() => signInExternally(external)}>
            {t(signinStrings.signInWith, { domain: external.domain })}
          </Button>
          <Divider>{t(signinStrings.or)}</Divider>
          <Button variant="outlined" size="large" fullWidth onClick={() => onPassword(email.trim())}>
            {t(signinStrings.signInWithPassword)}
          </Button>
        </>
      )}
    </OutcomeForm>
  );
}
