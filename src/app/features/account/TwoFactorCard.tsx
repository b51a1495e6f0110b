// The two-factor card of the profile page (SPEC §2 account/profile, §5 MFA code
// required, §8 errors): the status from GET auth/mfa/status; 'Enable' asks POST auth/mfa/enroll for
// the pending secret and shows its otpauth URL as a QR code plus the secret as text for manual entry;
// the code from the authenticator app goes to POST auth/mfa/enroll {token}, which turns MFA on. A
// wrong code shows under the field; other failures in the red alert. With MFA on, 'Turn off two-step
// sign-in' (TurnOffTwoFactor) turns it off again.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Suspense, useCallback, useEffect, useId, useState } from 'react';
import { retryableLazy } from '../../components/retryableLazy';
import { JSON_CONTENT_TYPE } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { OneTimeCodeField } from '../../components/CredentialFields';
import { OutcomeForm } from '../../components/OutcomeForm';
import { useBloomClient } from '../../session/BloomClientContext';
import { validateMfaCode } from './mfaCode';
import { translate } from '../../i18n/i18n';
import { useT } from '../../i18n/LocaleProvider';
import { accountStrings as s } from './strings';
import { TurnOffTwoFactor } from './TurnOffTwoFactor';

// The QR encoder (~9 KB gzip) loads only when an enrolment shows its code.
const QrCode = retryableLazy(() => import('./QrCode').then((m) => ({ default: m.QrCode })));

/** The answers of auth/mfa/status and auth/mfa/enroll (src/server/auth/mfa.ts MfaStatus). */
export interface MfaStatus {
  readonly enrolled: boolean;
  readonly secret?: string;
  readonly enrollUri?: string;
}

interface PendingEnrolment {
  readonly secret: string;
  readonly enrollUri: string;
}

/** The secret in groups of four, as authenticator apps print it; spaces are ignored when typed in. */
export function groupSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

export { validateMfaCode };

export function TwoFactorCard() {
  const client = useBloomClient();
  const titleId = useId();
  const t = useT();
  const [enrolled, setEnrolled] = useState<boolean>();
  const [pending, setPending] = useState<PendingEnrolment>();
  const [justEnrolled, setJustEnrolled] = useState(false);
  const [justTurnedOff, setJustTurnedOff] = useState(false);
  const [code, setCode] = useState('');
  const load = useOutcomeForm([] as const);
  const verify = useOutcomeForm(['token'] as const);

  const loadStatus = useCallback(
    () =>
      load.run(async () => {
        const status = await client.get<MfaStatus>('auth/mfa/status', { cache: 'no-cache' });
        setEnrolled(status.enrolled);
      }),
    // load.run is stable (useOutcomeForm).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [client],
  );

  useEffect(() => {
    void loadStatus();
  }, [loadStatus]);

  function startEnrolment() {
    return load.run(async () => {
      const status = await client.post<MfaStatus>('auth/mfa/enroll', {}, JSON_CONTENT_TYPE);
      if (status.enrolled) {
        setEnrolled(true);
      } else if (status.secret && status.enrollUri) {
        setPending({ secret: status.secret, enrollUri: status.enrollUri });
      } else {
        throw new Error(translate(s.noSecret));
      }
    });
  }

  async function confirmCode() {
    const status = await client.post<MfaStatus>('auth/mfa/enroll', { token: code.trim() }, JSON_CONTENT_TYPE);
    if (!status.enrolled) throw new Error(translate(s.codeRejected));
    setPending(undefined);
    setEnrolled(true);
    setJustEnrolled(true);
    setJustTurnedOff(false);
  }

  function turnedOff() {
    setEnrolled(false);
    setJustEnrolled(false);
    setJustTurnedOff(true);
  }

  function body() {
    if (enrolled === undefined) {
      return load.message ? (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <ErrorAlert message={load.message} />
          <Button variant="outlined" onClick={() => void loadStatus()}>
            {t(s.tryAgain)}
          </Button>
        </Stack>
      ) : (
        <CircularProgress aria-label={t(s.loadingMfa)} size={28} />
      );
    }
    if (enrolled) {
      return (
        <Stack spacing={2} sx={{ alignItems: 'stretch' }}>
          <Alert severity="success" role="status">
            {t(justEnrolled ? s.mfaNowOn : s.mfaOn)} {t(s.mfaEachSignIn)}
          </Alert>
          <TurnOffTwoFactor onTurnedOff={turnedOff} />
        </Stack>
      );
    }
    if (!pending) {
      return (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <ErrorAlert message={load.message} />
          {justTurnedOff && (
            <Alert severity="info" role="status">
              {t(s.mfaNowOff)}
            </Alert>
          )}
          <Typography>{t(s.mfaOff)}</Typography>
          <Button variant="contained" onClick={() => void startEnrolment()} loading={load.submitting}>
            {t(s.enable)}
          </Button>
        </Stack>
      );
    }
    return (
      <Stack spacing={2.5}>
        <Typography component="ol" sx={{ pl: 2.5, m: 0, '& li + li': { mt: 1 } }}>
          <li>{t(s.scan)}</li>
          <li>{t(s.enterCode)}</li>
        </Typography>
        <Box sx={{ display: 'flex', justifyContent: 'center' }}>
          <Suspense fallback={<CircularProgress aria-label={t(s.loadingQr)} size={28} />}>
            <QrCode text={pending.enrollUri} label={t(s.qrLabel)} />
          </Suspense>
        </Box>
        <Box>
          <Typography variant="body2" color="text.secondary" id={`${titleId}-secret`}>
            {t(s.cantScan)}
          </Typography>
          <Typography
            component="code"
            aria-describedby={`${titleId}-secret`}
            sx={{ fontFamily: 'monospace', fontSize: '1.05rem', overflowWrap: 'anywhere', userSelect: 'all' }}
          >
            {groupSecret(pending.secret)}
          </Typography>
        </Box>
        <OutcomeForm
          label={t(s.verifyForm)}
          form={verify}
          submitLabel={t(s.verify)}
          validate={() => validateMfaCode(code)}
          action={confirmCode}
        >
          <OneTimeCodeField
            id="mfa-enrol-code"
            label={t(s.codeFromApp)}
            // The Enable button is gone once the secret shows: keyboard focus moves on to the code.
            autoFocus
            value={code}
            onValueChange={setCode}
            errorText={verify.fieldErrors.token}
          />
        </OutcomeForm>
      </Stack>
    );
  }

  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={titleId}
      sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}
    >
      <Typography id={titleId} variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
        {t(s.mfaTitle)}
      </Typography>
      {body()}
    </Paper>
  );
}
