// A care-team member's home ("/" signed in as a Practitioner): a greeting, the appointment requests
// waiting for her answer and her patients in pregnancy care (her general-practitioner patients), all
// from one GraphQL request (CareTeamHome), asked again after each answer to a request.
import { useQuery } from '@apollo/client/react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import type { ProfileResource } from '../../../client';
import { CareTeamHomeDocument } from '../../../graphql';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { givenName } from '../../components/profileName';
import { AppointmentRequests, requestItems } from './AppointmentRequests';
import { PatientList } from './PatientList';
import { patientRows } from './patientRows';
import { useAppointmentDecision } from './useAppointmentDecision';

export function CareTeamHome({ profile, now: givenNow }: { profile: ProfileResource; now?: Date }) {
  // One "now" per visit, so the query's variables stay the same across renders.
  const [now] = useState(() => givenNow ?? new Date());
  const practitioner = profile.id ? `${profile.resourceType}/${profile.id}` : '';
  const { data, loading, error, refetch } = useQuery(CareTeamHomeDocument, {
    variables: { practitioner, from: `ge${now.toISOString()}` },
    skip: !practitioner,
  });
  const rows = useMemo(() => patientRows(data, now), [data, now]);
  const requests = useMemo(() => requestItems(data?.requests ?? [], practitioner), [data, practitioner]);
  const { state, decide } = useAppointmentDecision(practitioner || undefined);
  const name = givenName(profile);
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 4, sm: 6 } }}>
      <title>Your patients · Bloom</title>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', sm: '2.4rem' } }}>
        {name ? `Hello ${name}` : 'Hello'}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        Your patients in pregnancy care and what is waiting for you.
      </Typography>
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label="Loading your patients" />}
      {data && (
        <>
          <AppointmentRequests
            items={requests}
            state={state}
            onDecide={(item, decision) =>
              // The list is the server's search (booked, her participation tentative): ask it again
              // once she answered, so the request she dealt with leaves the list.
              void decide(item.id, item.patient, decision).then((done) => (done ? refetch() : undefined))
            }
          />
          <Box component="section" aria-labelledby="patients-heading">
            <Typography id="patients-heading" component="h2" variant="h5" sx={{ mb: 1.5 }}>
              Your patients
            </Typography>
            {rows.length === 0 ? (
              <EmptyState text="No patients name you as their general practitioner yet." />
            ) : (
              <PatientList rows={rows} />
            )}
          </Box>
        </>
      )}
    </Box>
  );
}

export default CareTeamHome;
