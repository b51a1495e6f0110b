// /pregnancy/kicks: the daily kick count from 28 weeks. Before then (or with no due date) it says when
// counting starts; from then she counts, and sees her latest counts. One KickCounts query.
import { useQuery } from '@apollo/client/react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { KickCountsDocument, type KickCountsQuery } from '../../../graphql';
import { clinicContact } from '../../components/ClinicContact';
import { LoadError, LoadingState } from '../../components/ListStates';
import { PageHeading } from '../../components/PageHeading';
import {
  effectiveDueDate,
  KICK_COUNT_FROM_WEEK,
  pregnancyProgress,
} from '../../components/pregnancyProgress';
import { useSession } from '../../session/BloomClientContext';
import { KICK_COUNT_GOAL } from './kickCount';
import { KickCounter } from './KickCounter';
import { KickCountHistory, type KickCountEntry } from './KickCountHistory';

function entriesOf(data: KickCountsQuery | undefined): KickCountEntry[] {
  const entries: KickCountEntry[] = [];
  for (const edge of data?.counts?.edges ?? []) {
    const resource = edge?.resource;
    const movements = resource?.valueQuantity?.value;
    const { start, end } = resource?.effectivePeriod ?? {};
    if (resource?.id && typeof movements === 'number' && start && end) {
      entries.push({ id: resource.id, movements, start, end });
    }
  }
  return entries;
}

export function KickCountPage({ now: givenNow }: { now?: Date }) {
  const [now] = useState(() => givenNow ?? new Date());
  const { profile } = useSession();
  const patientId = profile?.resourceType === 'Patient' ? (profile.id ?? '') : '';
  const { data, loading, error, refetch } = useQuery(KickCountsDocument, {
    variables: { patient: `Patient/${patientId}`, patientId },
    skip: !patientId,
  });
  const { dueDate } = effectiveDueDate(
    data?.dueDate?.edges?.[0]?.resource?.valueDateTime,
    data?.lastPeriod?.edges?.[0]?.resource?.valueDateTime,
  );
  const progress = dueDate ? pregnancyProgress(dueDate, now) : undefined;
  const entries = entriesOf(data);
  return (
    <Box sx={{ maxWidth: 760, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, sm: 5 } }}>
      <PageHeading title="Count your baby's kicks" />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label="Loading your kick counts" />}
      {data && (
        <>
          {progress && progress.weeks >= KICK_COUNT_FROM_WEEK ? (
            <>
              <Typography sx={{ mb: 3 }}>
                Once a day, when your baby is usually active, sit or lie on your side and tap the button each
                time you feel a movement: a kick, a roll or a flutter. Most babies make {KICK_COUNT_GOAL}{' '}
                movements well within 2 hours.
              </Typography>
              <KickCounter patient={`Patient/${patientId}`} clinic={clinicContact(data.Patient)} />
            </>
          ) : (
            <Typography>
              {progress
                ? `Kick counting starts at ${KICK_COUNT_FROM_WEEK} weeks. You are ${progress.weeks} weeks pregnant.`
                : `Kick counting starts at ${KICK_COUNT_FROM_WEEK} weeks. We don't know your due date yet: ask your care team.`}{' '}
              <Link component={RouterLink} to="/pregnancy">
                See your pregnancy week by week
              </Link>
            </Typography>
          )}
          <KickCountHistory entries={entries} />
        </>
      )}
    </Box>
  );
}

export default KickCountPage;
