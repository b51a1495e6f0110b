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
import { useT } from '../../i18n/LocaleProvider';
import { useSession } from '../../session/BloomClientContext';
import { KICK_COUNT_GOAL } from './kickCount';
import { KickCounter } from './KickCounter';
import { KickCountHistory, type KickCountEntry } from './KickCountHistory';
import { kickCountStrings } from './strings';

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
  const t = useT();
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
      <PageHeading title={t(kickCountStrings.title)} />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label={t(kickCountStrings.loading)} />}
      {data && (
        <>
          {progress && progress.weeks >= KICK_COUNT_FROM_WEEK ? (
            <>
              <Typography sx={{ mb: 3 }}>{t(kickCountStrings.howTo, { goal: KICK_COUNT_GOAL })}</Typography>
              <KickCounter patient={`Patient/${patientId}`} clinic={clinicContact(data.Patient)} />
            </>
          ) : (
            <Typography>
              {progress
                ? t(kickCountStrings.startsAt, { from: KICK_COUNT_FROM_WEEK, weeks: progress.weeks })
                : t(kickCountStrings.startsAtNoDueDate, { from: KICK_COUNT_FROM_WEEK })}{' '}
              <Link component={RouterLink} to="/pregnancy">
                {t(kickCountStrings.weekByWeek)}
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
