// The chart's Appointments tab: her appointments, newest first, with status and (when cancelled) why.
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import { useParams } from 'react-router-dom';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { PageHeading } from '../../components/PageHeading';
import { StatusBadge } from '../../components/StatusBadge';
import { chartTabData, isFhirId } from './chartTabs';
import { usePatientChart } from './usePatientChart';

export function ChartAppointments() {
  const { patientId } = useParams();
  const { data, loading, error, refetch } = usePatientChart(
    isFhirId(patientId) ? patientId : undefined,
    chartTabData('appointments'),
  );
  const appointments = (data?.AppointmentList ?? []).flatMap((a) => (a?.id ? [a] : []));
  return (
    <Box sx={{ py: 2 }}>
      <PageHeading title="Appointments" />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label="Loading appointments" />}
      {data && appointments.length === 0 && <EmptyState text="No appointments" />}
      {appointments.length > 0 && (
        <List aria-label="Appointments">
          {appointments.map((a) => (
            <ListItem key={a.id} divider sx={{ px: 0, display: 'block' }}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
                <Typography sx={{ fontWeight: 600 }}>
                  {a.start ? <DateTimeDisplay value={a.start} /> : 'No time set'}
                </Typography>
                {a.status && <StatusBadge status={a.status} />}
              </Box>
              <Typography color="text.secondary">
                {a.serviceType?.find((s) => s?.text)?.text ?? a.description ?? 'Visit'}
              </Typography>
              {a.cancelationReason?.text && <Typography>Reason: {a.cancelationReason.text}</Typography>}
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}

export default ChartAppointments;
