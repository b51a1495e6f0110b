// get-care/* (SPEC §2 Appointment request screen; §4 appointments; §7 free times; §8 messages): pick a
// day on the month calendar (enabled only where a free time starts), then a time; 'Selected Slot'
// shows the choice and Send Request books it (Appointment/$book, the scheduling path Medplum apps
// use too), then sends the appointment-request Communication about the booked Appointment into her
// message thread (found, else opened) and goes to /messages where the request sits in the thread. Below, the patient's upcoming and past
// appointments. The Schedule and appointments come from the GetCare query; the free times from the
// Schedule's availability (Schedule/{id}/$find, useFreeSlots). An error notification goes away once its
// problem is fixed (a time chosen, the request sent); the calendar says which days have no free times
// and why today cannot be chosen.
import { useQuery } from '@apollo/client/react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { GetCareDocument } from '../../../graphql';
import { createReference } from '../../../fhir/references';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { useNotify } from '../../components/Notifications';
import { findOrOpenThread, touchThread } from '../../components/patientThread';
import { useBloomClient, useSession } from '../../session/BloomClientContext';
import type { Message } from '../../i18n/catalog';
import { useLocale, useT } from '../../i18n/LocaleProvider';
import { getCareStrings as s } from './strings';
import { AppointmentSection } from './AppointmentList';
import { appointmentRequest, formatSlotStart } from './appointmentRequest';
import { splitAppointments } from './appointmentSplit';
import { SlotCalendar } from './SlotCalendar';
import { SlotTimes } from './SlotTimes';
import { sameDayNote } from './sameDayNote';
import { firstOfMonth, localDayKey, slotsByLocalDay } from './slotWindow';
import { useFreeSlots, type FreeSlot } from './useFreeSlots';

const SERVICE_TYPE_REFERENCE = 'https://medplum.com/fhir/service-type-reference';

export const MESSAGES = {
  noSlot: s.noSlot,
  sent: s.sent,
  failed: s.failed,
} as const;

export function GetCarePage({ now: givenNow }: { now?: Date }) {
  const [now] = useState(() => givenNow ?? new Date());
  const { profile, loading: sessionLoading } = useSession();
  const patient = profile?.resourceType === 'Patient' && profile.id ? profile : undefined;
  const client = useBloomClient();
  const notify = useNotify();
  const navigate = useNavigate();
  const t = useT();
  const locale = useLocale();
  const [month, setMonth] = useState(() => firstOfMonth(now));
  const [day, setDay] = useState<Date | null>(null);
  const [slot, setSlot] = useState<FreeSlot | undefined>();
  const [sending, setSending] = useState(false);
  // Booked, but the message to the care team failed: a retry sends the message only.
  const [booked, setBooked] = useState<{ slot: FreeSlot; reference: string } | undefined>();
  // The error notification on screen, taken away when its problem is fixed.
  const dismissError = useRef<(() => void) | undefined>(undefined);

  function clearError() {
    dismissError.current?.();
    dismissError.current = undefined;
  }

  function showError(message: Message) {
    clearError();
    dismissError.current = notify(t(message), 'error');
  }

  function chooseSlot(chosen: FreeSlot) {
    setSlot(chosen);
    clearError();
  }

  const { data, previousData, loading, error, refetch } = useQuery(GetCareDocument, {
    variables: { patient: patient ? `Patient/${patient.id}` : '' },
    skip: !patient,
  });
  const shown = data ?? previousData;
  const schedule = shown?.ScheduleList?.[0] ?? undefined;
  const scheduleActors = schedule?.actor ?? [];
  const serviceReference =
    schedule?.serviceType
      ?.flatMap((concept) => concept?.extension ?? [])
      .find((extension) => extension?.url === SERVICE_TYPE_REFERENCE)?.valueReference?.reference ?? undefined;
  const free = useFreeSlots(schedule?.id ?? undefined, serviceReference, month);
  const byDay = useMemo(() => slotsByLocalDay(free.slots ?? [], now), [free.slots, now]);
  const monthPrefix = localDayKey(month).slice(0, 7);
  const freeTimesByDay = useMemo(
    () =>
      new Map(
        [...byDay].filter(([key]) => key.startsWith(monthPrefix)).map(([key, list]) => [key, list.length]),
      ),
    [byDay, monthPrefix],
  );
  const daySlots = day ? (byDay.get(localDayKey(day)) ?? []) : [];
  const showingThisMonth = monthPrefix === localDayKey(now).slice(0, 7);
  const todayNote =
    showingThisMonth && free.slots
      ? sameDayNote(now, byDay.get(localDayKey(now))?.length ?? 0, schedule?.planningHorizon?.start, locale)
      : undefined;
  const appointments = (shown?.AppointmentList ?? []).flatMap((a) => (a ? [a] : []));
  const { upcoming, past } = splitAppointments(appointments, now);

  async function sendRequest() {
    if (!slot || !patient) {
      showError(MESSAGES.noSlot);
      return;
    }
    setSending(true);
    const patientRef = createReference(patient);
    let appointment = booked?.slot === slot ? booked.reference : undefined;
    try {
      if (!appointment) {
        const bundle = await client.bookAppointment([slot.proposal], { reference: `Patient/${patient.id}` });
        const created = bundle.entry?.[0]?.resource;
        appointment = `Appointment/${created?.id ?? ''}`;
        // Her upcoming appointments now include it: the client's write tells Apollo to read them again.
        setBooked({ slot, reference: appointment });
      }
      const thread = await findOrOpenThread(client, patientRef, patient.generalPractitioner);
      const sent = new Date();
      await client.createResource(
        appointmentRequest(
          patientRef,
          scheduleActors,
          { reference: appointment, start: slot.start },
          { reference: `Communication/${thread.id ?? ''}` },
          sent,
        ),
      );
      await touchThread(client, thread.id ?? '', sent.toISOString());
      clearError();
      notify(t(MESSAGES.sent), 'success');
      void navigate('/messages');
    } catch {
      showError(MESSAGES.failed);
      if (!appointment) {
        // The time may have been taken meanwhile: show what is free now.
        setSlot(undefined);
        free.reload();
      }
      setSending(false);
    }
  }

  return (
    <Box sx={{ maxWidth: 1000, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, sm: 5 } }}>
      <title>{t(s.title)}</title>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, mb: 2 }}>
        {t(s.heading)}
      </Typography>
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {free.error && <LoadError error={free.error} onRetry={free.reload} />}
      {(loading || sessionLoading) && !shown && <LoadingState label={t(s.loading)} />}
      {shown && (
        <>
          <Paper
            component="section"
            aria-labelledby="request-heading"
            variant="outlined"
            sx={{ p: { xs: 1.5, sm: 3 } }}
          >
            <Typography id="request-heading" variant="h2" sx={{ fontSize: '1.3rem', mb: 1 }}>
              {t(s.request)}
            </Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, alignItems: 'flex-start' }}>
              <Box sx={{ flex: '0 1 360px', minWidth: 0 }}>
                <SlotCalendar
                  month={month}
                  firstMonth={firstOfMonth(now)}
                  freeTimesByDay={freeTimesByDay}
                  day={day}
                  loading={loading || free.loading}
                  onMonthChange={(next) => {
                    setMonth(next);
                    setDay(null);
                  }}
                  onDayChange={setDay}
                />
                {data && !schedule && <EmptyState text={t(s.noSchedule)} />}
                {data && schedule && free.slots && freeTimesByDay.size === 0 && (
                  <EmptyState
                    text={t(s.noneInMonth, {
                      month: month.toLocaleDateString(locale, { month: 'long', year: 'numeric' }),
                    })}
                  />
                )}
                {data && schedule && free.slots && freeTimesByDay.size > 0 && (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                    {t(s.disabledDays)}
                  </Typography>
                )}
                {data && schedule && todayNote && (
                  <Typography
                    variant="body2"
                    color="text.secondary"
                    sx={{ mt: 1 }}
                    data-testid="same-day-note"
                  >
                    {t(todayNote.message, todayNote.values)}
                  </Typography>
                )}
              </Box>
              <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
                {day && daySlots.length > 0 ? (
                  <SlotTimes day={day} slots={daySlots} selectedId={slot?.id} onSelect={chooseSlot} />
                ) : day ? (
                  <Typography color="text.secondary">
                    {t(s.noneOnDay, {
                      day: day.toLocaleDateString(locale, { weekday: 'long', month: 'long', day: 'numeric' }),
                    })}
                  </Typography>
                ) : (
                  <Typography color="text.secondary">{t(s.chooseDay)}</Typography>
                )}
                <Typography variant="h3" sx={{ fontSize: '1.1rem', mt: 3 }}>
                  {t(s.selected)}
                </Typography>
                <Typography aria-live="polite" sx={{ mb: 2 }}>
                  {slot ? formatSlotStart(slot.start, locale) : t(s.noneYet)}
                </Typography>
                <Button variant="contained" onClick={() => void sendRequest()} disabled={sending}>
                  {t(s.send)}
                </Button>
              </Box>
            </Box>
          </Paper>

          <AppointmentSection
            id="upcoming-appointments"
            title={t(s.upcoming)}
            empty={t(s.noUpcoming)}
            appointments={upcoming}
          />
          <AppointmentSection
            id="past-appointments"
            title={t(s.past)}
            empty={t(s.noPast)}
            appointments={past}
          />
        </>
      )}
    </Box>
  );
}
