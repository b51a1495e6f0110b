// get-care/* (SPEC §2 Appointment request screen; §4 appointments; §7 slot search; §8 messages): pick a
// day on the month calendar (enabled only where a free slot starts), then a time; 'Selected Slot'
// shows the choice and Send Request creates the appointment-request Communication through the
// platform client, then goes to /messages where the request sits in the thread. Below, the
// patient's upcoming and past appointments. All data comes from the one GetCare query.
import { useApolloClient, useQuery } from '@apollo/client/react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { GetCareDocument } from '../../../graphql';
import { createReference } from '../../../fhir/references';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { useNotify } from '../../components/Notifications';
import { useBloomClient, useSession } from '../../session/BloomClientContext';
import { AppointmentSection } from './AppointmentList';
import { appointmentRequest, formatSlotStart } from './appointmentRequest';
import { splitAppointments } from './appointmentSplit';
import { SlotCalendar } from './SlotCalendar';
import { SlotTimes } from './SlotTimes';
import { firstOfMonth, localDayKey, slotsByLocalDay, slotWindow, type SlotTime } from './slotWindow';

export const MESSAGES = {
  noSlot: 'Please select a slot first.',
  sent: 'Appointment request sent.',
  failed: 'Failed to send request.',
} as const;

function monthText(month: Date): string {
  return month.toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
}

export function GetCarePage({ now: givenNow }: { now?: Date }) {
  const [now] = useState(() => givenNow ?? new Date());
  const { profile, loading: sessionLoading } = useSession();
  const patient = profile?.resourceType === 'Patient' && profile.id ? profile : undefined;
  const client = useBloomClient();
  const apollo = useApolloClient();
  const notify = useNotify();
  const navigate = useNavigate();
  const [month, setMonth] = useState(() => firstOfMonth(now));
  const [day, setDay] = useState<Date | null>(null);
  const [slot, setSlot] = useState<SlotTime | undefined>();
  const [sending, setSending] = useState(false);

  const { data, previousData, loading, error, refetch } = useQuery(GetCareDocument, {
    variables: { patient: patient ? `Patient/${patient.id}` : '', ...slotWindow(month) },
    skip: !patient,
  });
  const shown = data ?? previousData;
  const schedule = data?.ScheduleList?.[0] ?? undefined;
  // The practitioner to address stays known while another month's slots load.
  const scheduleActors = (data ?? previousData)?.ScheduleList?.[0]?.actor ?? [];
  const byDay = useMemo(() => {
    const slots = (schedule?.SlotList ?? []).flatMap((s) =>
      s?.id && s.start ? [{ id: s.id, start: s.start }] : [],
    );
    return slotsByLocalDay(slots, now);
  }, [schedule, now]);
  const monthPrefix = localDayKey(month).slice(0, 7);
  const freeTimesByDay = useMemo(
    () =>
      new Map(
        [...byDay].filter(([key]) => key.startsWith(monthPrefix)).map(([key, list]) => [key, list.length]),
      ),
    [byDay, monthPrefix],
  );
  const daySlots = day ? (byDay.get(localDayKey(day)) ?? []) : [];
  const appointments = (shown?.AppointmentList ?? []).flatMap((a) => (a ? [a] : []));
  const { upcoming, past } = splitAppointments(appointments, now);

  async function sendRequest() {
    if (!slot || !patient) {
      notify(MESSAGES.noSlot, 'error');
      return;
    }
    setSending(true);
    try {
      await client.createResource(
        appointmentRequest(createReference(patient), scheduleActors, slot, new Date()),
      );
      // The thread on /messages must show the request, not a cached copy from before it.
      apollo.cache.evict({ fieldName: 'CommunicationList' });
      notify(MESSAGES.sent, 'success');
      void navigate('/messages');
    } catch {
      notify(MESSAGES.failed, 'error');
      setSending(false);
    }
  }

  return (
    <Box sx={{ maxWidth: 1000, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, sm: 5 } }}>
      <title>Get Care · Bloom</title>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, mb: 2 }}>
        Get Care
      </Typography>
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {(loading || sessionLoading) && !shown && <LoadingState label="Loading appointments" />}
      {shown && (
        <>
          <Paper
            component="section"
            aria-labelledby="request-heading"
            variant="outlined"
            sx={{ p: { xs: 1.5, sm: 3 } }}
          >
            <Typography id="request-heading" variant="h2" sx={{ fontSize: '1.3rem', mb: 1 }}>
              Request an appointment
            </Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, alignItems: 'flex-start' }}>
              <Box sx={{ flex: '0 1 360px', minWidth: 0 }}>
                <SlotCalendar
                  month={month}
                  firstMonth={firstOfMonth(now)}
                  freeTimesByDay={freeTimesByDay}
                  day={day}
                  loading={loading}
                  onMonthChange={(next) => {
                    setMonth(next);
                    setDay(null);
                  }}
                  onDayChange={setDay}
                />
                {data && !schedule && (
                  <EmptyState text="The clinic offers no appointment times at the moment." />
                )}
                {data && schedule && freeTimesByDay.size === 0 && (
                  <EmptyState text={`No free times in ${monthText(month)}. Try the next month.`} />
                )}
              </Box>
              <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
                {day && daySlots.length > 0 ? (
                  <SlotTimes day={day} slots={daySlots} selectedId={slot?.id} onSelect={setSlot} />
                ) : (
                  <Typography color="text.secondary">Choose a day to see its free times.</Typography>
                )}
                <Typography variant="h3" sx={{ fontSize: '1.1rem', mt: 3 }}>
                  Selected Slot
                </Typography>
                <Typography aria-live="polite" sx={{ mb: 2 }}>
                  {slot ? formatSlotStart(slot.start) : 'None yet'}
                </Typography>
                <Button variant="contained" onClick={() => void sendRequest()} disabled={sending}>
                  Send Request
                </Button>
              </Box>
            </Box>
          </Paper>

          <AppointmentSection title="Upcoming appointments" appointments={upcoming} />
          <AppointmentSection title="Past appointments" appointments={past} />
        </>
      )}
    </Box>
  );
}
