// Sign-in step 7 (SPEC §2): 'Success' while the code is exchanged for tokens (processCode with the
// stored PKCE verifier, SPEC §4), then the app goes to /. A failed exchange shows its error.
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { errorOutcome } from '../../api/errorOutcome';
import { ErrorAlert } from '../../components/ErrorAlert';
import { operationOutcomeToString } from '../../../fhir/outcomes';
import { useBloomClient } from '../../session/BloomClientContext';
import { signInRedirectUri } from '../../components/signInRedirectUri';
import { useT } from '../../i18n/LocaleProvider';
import { signinStrings } from './strings';

export function SuccessStep({ code, onDone }: { readonly code: string; readonly onDone: () => void }) {
  const client = useBloomClient();
  const t = useT();
  const [error, setError] = useState<string>();
  const started = useRef(false);

  useEffect(() => {
    // A code serves once: StrictMode's second effect run must not exchange it again.
    if (started.current) return;
    started.current = true;
    client
      .processCode(code, { redirectUri: signInRedirectUri() })
      .then(onDone, (err: unknown) => setError(operationOutcomeToString(errorOutcome(err))));
  }, [client, code, onDone]);

  return (
    <Stack spacing={2} sx={{ alignItems: 'center' }}>
      {error ? (
        <ErrorAlert message={error} />
      ) : (
        <>
          <CircularProgress aria-label={t(signinStrings.signingIn)} />
          <Typography color="text.secondary">{t(signinStrings.opening)}</Typography>
        </>
      )}
    </Stack>
  );
}
