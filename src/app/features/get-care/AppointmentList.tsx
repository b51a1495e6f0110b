// A labelled list of appointments (SPEC §3 Appointment: start, status, participant[].actor.display):
// what the visit is, with whom, when (local time) and its status badge (SPEC §4 colours); a titled
// section of them with its empty text.
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState } from '../../components/ListStates';
import { StatusBadge } from '../../components/StatusBadge';
import { useT } from '../../i18n/LocaleProvider';
import { getCareStrings as s } from './strings';

export interface AppointmentItem {
  readonly id: string | null;
  readonly status: string | null;
  readonly start: string | null;
  readonly description: string | null;
  readonly serviceType: readonly ({ readonly text: string | null } | null)[] | null;
  readonly participant:
    | readonly ({
        readonly actor: { readonly reference: string | null; readonly display: string | null } | null;
      } | null)[]
    | null;
}

/** The names of the appointment's people other than the patient (practitioners, related persons). */
function withWhom(appointment: AppointmentItem): string {
  return (appointment.participant ?? [])
    .flatMap((participant) => {
      const actor = participant?.actor;
      const type = actor?.reference?.split('/')[0];
      return actor?.display && (type === 'Practitioner' || type === 'PractitionerRole')
        ? [actor.display]
        : [];
    })
    .join(', ');
}

function title(appointment: AppointmentItem): string | undefined {
  return (
    appointment.description || appointment.serviceType?.find((concept) => concept?.text)?.text || undefined
  );
}

export function AppointmentList({
  label,
  appointments,
}: {
  label: string;
  appointments: readonly AppointmentItem[];
}) {
  const t = useT();
  return (
    <List aria-label={label}>
      {appointments.map((appointment, index) => {
        const people = withWhom(appointment);
        return (
          <ListItem key={appointment.id ?? index} divider sx={{ px: 0 }}>
            <Stack
              direction="row"
              spacing={2}
              useFlexGap
              sx={{ width: '100%', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
            >
              <div>
                <Typography>{title(appointment) ?? t(s.appointment)}</Typography>
                {people && (
                  <Typography variant="body2" color="text.secondary">
                    {t(s.with, { people })}
                  </Typography>
                )}
              </div>
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                <Typography variant="body2" color="text.secondary">
                  <DateTimeDisplay value={appointment.start} />
                </Typography>
                {appointment.status && <StatusBadge status={appointment.status} kind="appointment" />}
              </Stack>
            </Stack>
          </ListItem>
        );
      })}
    </List>
  );
}

/** A titled section of appointments ("Upcoming appointments"), or its empty text ("No upcoming appointments"). */
export function AppointmentSection({
  id,
  title,
  empty,
  appointments,
}: {
  /** Unique on the page: the heading's id is made of it. */
  id: string;
  title: string;
  empty: string;
  appointments: readonly AppointmentItem[];
}) {
  const headingId = `${id}-heading`;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 4 }}>
      <Typography id={headingId} variant="h2" sx={{ fontSize: '1.3rem' }}>
        {title}
      </Typography>
      {appointments.length === 0 ? (
        <EmptyState text={empty} />
      ) : (
        <AppointmentList label={title} appointments={appointments} />
      )}
    </Box>
  );
}
