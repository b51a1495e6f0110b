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
import { useSession } from '../../session/BloomClientContext';
import { CRISIS_LINE, screeningOutcome } from './screeningOutcome';

const POLL_MS = 1500;
const GIVE_UP_MS = 60_000;

export function ScreeningResultPage() {
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
      <PageHeading title="Thank you for your answers" />
      <Box role="status" aria-live="polite">
        {waiting && <LoadingState label="Saving your answers" />}
        {outcome.kind === 'alert' && (
          <Box sx={{ display: 'grid', gap: 2 }}>
            <Typography>
              Thank you for telling us how you have been feeling. Many people feel this way during pregnancy
              and after a baby, and help works. Your care team has been told, and someone will contact you.
            </Typography>
            <Alert severity="info" icon={false}>
              <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                Who to contact now
              </Typography>
              <Typography>
                Please call <CallClinic clinic={clinic} /> today to talk with your care team.
              </Typography>
              {outcome.selfHarm && (
                <Typography sx={{ mt: 1 }}>
                  If you have thoughts of harming yourself, you do not have to wait: call or text{' '}
                  <Phone number={CRISIS_LINE} /> (Suicide &amp; Crisis Lifeline) any time.
                </Typography>
              )}
              <Typography sx={{ mt: 1 }}>
                If you feel you might harm yourself or are in danger now, call{' '}
                <Phone number={EMERGENCY_NUMBER} />.
              </Typography>
            </Alert>
          </Box>
        )}
        {(outcome.kind === 'thanks' || (outcome.kind === 'waiting' && gaveUp)) && (
          <Typography>
            Your answers are saved and your care team will go through them with you. If you would like to talk
            sooner, call <CallClinic clinic={clinic} />.
          </Typography>
        )}
      </Box>
      <Typography sx={{ mt: 3 }}>
        <ResourceLink to="/forms">Back to forms</ResourceLink>
      </Typography>
    </Box>
  );
}

export default ScreeningResultPage;
