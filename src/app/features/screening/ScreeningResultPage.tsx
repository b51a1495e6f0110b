// /screening/{responseId}: what the patient sees after sending a screening questionnaire (the EPDS).
// Her answers are saved; the clinic's scoring bot scores them within a moment. On a score that asks
// for the care team she reads, calmly, whom to call now (her clinic's phone, and the emergency and
// crisis numbers when she answered the question on harming herself); otherwise a thank-you. One
// GraphQL request, repeated until the score is there (at most a minute); without a score she still
// gets the thank-you and her clinic's number.
import { useQuery } from '@apollo/client/react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { ScreeningResultDocument } from '../../../graphql';
import { CallClinic, clinicContact, EMERGENCY_NUMBER, Phone } from '../../components/ClinicContact';
import { LoadingState } from '../../components/ListStates';
import { PageHeading } from '../../components/PageHeading';
import { ResourceLink } from '../../components/ResourceLink';
import { useT } from '../../i18n/LocaleProvider';
import { useSession } from '../../session/BloomClientContext';
import { CRISIS_LINE, screeningOutcome } from './screeningOutcome';
import { screeningStrings } from './strings';

const POLL_MS = 1500;
const GIVE_UP_MS = 60_000;

export function ScreeningResultPage() {
  const t = useT();
  const { responseId = '' } = useParams();
  const { profile } = useSession();
  const [gaveUp, setGaveUp] = useState(false);
  const { data, startPolling, stopPolling } = useQuery(ScreeningResultDocument, {
    variables: { response: `QuestionnaireResponse/${responseId}`, patient: profile?.id ?? '' },
    skip: !profile?.id || !responseId,
    fetchPolicy: 'network-only',
  });
  const outcome = screeningOutcome(data);
  const clinic = clinicContact(data?.Patient);
  const waiting = outcome.kind === 'waiting' && !gaveUp;

  useEffect(() => {
    if (!waiting) {
      stopPolling();
      return undefined;
    }
    startPolling(POLL_MS);
    const timer = setTimeout(() => setGaveUp(true), GIVE_UP_MS);
    return () => {
      clearTimeout(timer);
      stopPolling();
    };
  }, [waiting, startPolling, stopPolling]);

  return (
    <Box sx={{ maxWidth: 760, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, sm: 5 } }}>
      <PageHeading title={t(screeningStrings.title)} />
      <Box role="status" aria-live="polite">
        {waiting && <LoadingState label={t(screeningStrings.saving)} />}
        {outcome.kind === 'alert' && (
          <Box sx={{ display: 'grid', gap: 2 }}>
            <Typography>{t(screeningStrings.alertIntro)}</Typography>
            <Alert severity="info" icon={false}>
              <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                {t(screeningStrings.whoToContact)}
              </Typography>
              <Typography>
                {t(screeningStrings.callClinic)} <CallClinic clinic={clinic} />{' '}
                {t(screeningStrings.callClinicAfter)}
              </Typography>
              {outcome.selfHarm && (
                <Typography sx={{ mt: 1 }}>
                  {t(screeningStrings.selfHarm)} <Phone number={CRISIS_LINE} />{' '}
                  {t(screeningStrings.crisisLine)}
                </Typography>
              )}
              <Typography sx={{ mt: 1 }}>
                {t(screeningStrings.emergency)} <Phone number={EMERGENCY_NUMBER} />.
              </Typography>
            </Alert>
          </Box>
        )}
        {(outcome.kind === 'thanks' || (outcome.kind === 'waiting' && gaveUp)) && (
          <Typography>
            {t(screeningStrings.thanks)} <CallClinic clinic={clinic} />.
          </Typography>
        )}
      </Box>
      <Typography sx={{ mt: 3 }}>
        <ResourceLink to="/forms">{t(screeningStrings.back)}</ResourceLink>
      </Typography>
    </Box>
  );
}

export default ScreeningResultPage;
