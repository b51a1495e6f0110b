// account/profile (SPEC §2): a patient edits their details (ProfileForm); other profiles
// (practitioners, admins) see their name and email from auth/me. Then the two-factor card.
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import type { ProfileResource, SessionDetails } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageHeading } from '../../components/PageHeading';
import { useT } from '../../i18n/LocaleProvider';
import { useBloomClient, useSession } from '../../session/BloomClientContext';
import { ProfileForm } from './ProfileForm';
import { accountStrings as s } from './strings';
import { TwoFactorCard } from './TwoFactorCard';

/** The full name of a person profile ('Maria Garcia'), or a client's name. */
export function displayName(profile: ProfileResource): string {
  if (profile.resourceType === 'ClientApplication' || profile.resourceType === 'Bot') {
    return profile.name ?? '';
  }
  const name = profile.name?.[0];
  if (!name) return '';
  return name.text ?? [...(name.given ?? []), name.family].filter(Boolean).join(' ');
}

/** The sign-in email: the user's, else the profile's email contact point. */
export function profileEmail(me: SessionDetails): string | undefined {
  if (me.user?.email) return me.user.email;
  const telecom = 'telecom' in me.profile ? me.profile.telecom : undefined;
  return telecom?.find((contact) => contact.system === 'email')?.value;
}

function Detail({ term, value }: { term: string; value: string | undefined }) {
  return (
    <Box>
      <Typography component="dt" variant="body2" color="text.secondary">
        {term}
      </Typography>
      <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {value || '—'}
      </Typography>
    </Box>
  );
}

/** The read-only details of a profile that is not a Patient. */
function SessionDetailsList() {
  const client = useBloomClient();
  const [me, setMe] = useState<SessionDetails>();
  const load = useOutcomeForm([] as const);
  const t = useT();

  useEffect(() => {
    void load.run(async () => setMe(await client.getMe()));
    // load.run is stable (useOutcomeForm).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client]);

  return (
    <>
      <ErrorAlert message={load.message} />
      {me ? (
        <Stack component="dl" spacing={1.5} sx={{ m: 0 }}>
          <Detail term={t(s.name)} value={displayName(me.profile)} />
          <Detail term={t(s.email)} value={profileEmail(me)} />
        </Stack>
      ) : (
        !load.message && <CircularProgress aria-label={t(s.loadingProfile)} size={28} />
      )}
    </>
  );
}

export function ProfilePage() {
  const { profile } = useSession();
  const t = useT();
  const patientId = profile?.resourceType === 'Patient' ? profile.id : undefined;
  return (
    <Box sx={{ maxWidth: 720 }}>
      <PageHeading title={t(s.profileTitle)} />
      <Stack spacing={3}>
        <Paper
          component="section"
          variant="outlined"
          aria-labelledby="profile-details-title"
          sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}
        >
          <Typography id="profile-details-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
            {t(s.details)}
          </Typography>
          {patientId ? <ProfileForm patientId={patientId} /> : <SessionDetailsList />}
        </Paper>
        <TwoFactorCard />
      </Stack>
    </Box>
  );
}
