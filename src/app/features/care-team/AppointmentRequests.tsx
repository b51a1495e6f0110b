// Appointment requests waiting for her answer (booked by the patient through Get Care, her own
// participation still tentative): Accept, or Decline with a reason the patient reads in her thread.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { AppointmentRequestFieldsFragment } from '../../../graphql';
import { PlainTextField } from '../../components/PlainTextField';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { reasonProblem, type Decision } from './appointmentDecision';
import { patientName } from './patientRows';
import type { DecisionState } from './useAppointmentDecision';

export interface AppointmentRequestItem {
  readonly id: string;
  readonly patient: string;
  readonly patientName: string;
  readonly start: string | undefined;
  readonly service: string | undefined;
}

/**
 * The requests still waiting for her: the search `actor=<her>&part-status=tentative` matches when any
 * participant is tentative (FHIR does not tie the two parameters to one participant), and the clinic's
 * Location stays tentative after she accepts, so her own participation is checked here.
 */
export function requestItems(
  requests: readonly (AppointmentRequestFieldsFragment | null)[],
  practitioner: string,
): AppointmentRequestItem[] {
  return requests.flatMap((appointment): AppointmentRequestItem[] => {
    const patient = appointment?.participant?.find((p) => p?.actor?.reference?.startsWith('Patient/'))?.actor;
    if (!appointment?.id || !patient?.reference) return [];
    const hers = appointment.participant?.find((p) => p?.actor?.reference === practitioner);
    if (appointment.status !== 'booked' || hers?.status !== 'tentative') return [];
    const resource = patient.resource && 'name' in patient.resource ? patient.resource : undefined;
    return [
      {
        id: appointment.id,
        patient: patient.reference,
        patientName: resource ? patientName(resource.name) : (patient.display ?? patient.reference),
        start: appointment.start ?? undefined,
        service: appointment.serviceType?.find((s) => s?.text)?.text ?? undefined,
      },
    ];
  });
}

function RequestCard({
  item,
  busy,
  onDecide,
}: {
  item: AppointmentRequestItem;
  busy: boolean;
  onDecide: (decision: Decision) => void;
}) {
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const titleId = `request-${item.id}`;
  return (
    <Paper component="li" variant="outlined" aria-labelledby={titleId} sx={{ p: 2 }}>
      <Typography id={titleId} component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {item.patientName}
      </Typography>
      <Typography>
        {item.start ? <DateTimeDisplay value={item.start} /> : 'No time given'}
        {item.service ? ` · ${item.service}` : ''}
      </Typography>
      {!declining ? (
        <Box sx={{ display: 'flex', gap: 1, mt: 1.5, flexWrap: 'wrap' }}>
          <Button variant="contained" disabled={busy} onClick={() => onDecide({ kind: 'accept' })}>
            Accept
          </Button>
          <Button variant="outlined" color="error" disabled={busy} onClick={() => setDeclining(true)}>
            Decline
          </Button>
        </Box>
      ) : (
        <Box
          component="form"
          noValidate
          sx={{ mt: 1.5 }}
          onSubmit={(event) => {
            event.preventDefault();
            const found = reasonProblem(reason);
            setProblem(found);
            if (!found) onDecide({ kind: 'decline', reason });
          }}
        >
          <PlainTextField
            label="Reason for declining"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            error={problem !== undefined}
            helperText={problem ?? 'The patient reads this in her messages.'}
            required
            fullWidth
            multiline
            minRows={2}
            autoFocus
          />
          <Box sx={{ display: 'flex', gap: 1, mt: 1, flexWrap: 'wrap' }}>
            <Button type="submit" variant="contained" color="error" disabled={busy}>
              Decline request
            </Button>
            <Button onClick={() => setDeclining(false)} disabled={busy}>
              Cancel
            </Button>
          </Box>
        </Box>
      )}
    </Paper>
  );
}

export function AppointmentRequests({
  items,
  state,
  onDecide,
}: {
  items: readonly AppointmentRequestItem[];
  state: DecisionState;
  onDecide: (item: AppointmentRequestItem, decision: Decision) => void;
}) {
  return (
    <Box component="section" aria-labelledby="requests-heading" sx={{ mb: 4 }}>
      <Typography id="requests-heading" component="h2" variant="h5" sx={{ mb: 1.5 }}>
        Appointment requests
      </Typography>
      <Box role="status" aria-live="polite">
        {state.done && (
          <Alert severity="success" sx={{ mb: 1.5 }}>
            {state.done}
          </Alert>
        )}
      </Box>
      {state.error && (
        <Alert severity="error" sx={{ mb: 1.5 }}>
          {state.error}
        </Alert>
      )}
      {items.length === 0 ? (
        <Typography color="text.secondary">No requests waiting for you.</Typography>
      ) : (
        <Box
          component="ul"
          aria-label="Appointment requests"
          sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}
        >
          {items.map((item) => (
            <RequestCard
              key={item.id}
              item={item}
              busy={state.busy === item.id}
              onDecide={(decision) => onDecide(item, decision)}
            />
          ))}
        </Box>
      )}
    </Box>
  );
}
