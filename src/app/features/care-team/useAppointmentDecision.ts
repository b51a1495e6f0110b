// Sends her answer to an appointment request: reads the Appointment as stored (every field kept in
// the update, its version for If-Match) and its Slots, finds the patient's thread (or opens one), then
// runs the one transaction of appointmentDecision.ts. Apollo's cache follows the write by itself.
import type { Appointment, Slot } from '@medplum/fhirtypes';
import { useCallback, useState } from 'react';
import { findOrOpenThread } from '../../components/patientThread';
import { useBloomClient } from '../../session/BloomClientContext';
import { decisionBundle, type Decision } from './appointmentDecision';

export interface DecisionState {
  readonly busy: string | undefined;
  readonly error: string | undefined;
  readonly done: string | undefined;
}

function whenText(start: string | undefined): string {
  if (!start) return 'the requested time';
  return new Date(start).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'short' });
}

export function useAppointmentDecision(practitioner: string | undefined) {
  const client = useBloomClient();
  const [state, setState] = useState<DecisionState>({ busy: undefined, error: undefined, done: undefined });

  const decide = useCallback(
    async (appointmentId: string, patient: string, decision: Decision): Promise<boolean> => {
      if (!practitioner) return false;
      setState({ busy: appointmentId, error: undefined, done: undefined });
      try {
        const appointment = await client.readResource<Appointment>('Appointment', appointmentId);
        const slots: Slot[] = [];
        for (const ref of appointment.slot ?? []) {
          const id = ref.reference?.startsWith('Slot/') ? ref.reference.slice(5) : undefined;
          if (id) slots.push(await client.readResource<Slot>('Slot', id));
        }
        const thread = await findOrOpenThread(client, { reference: patient }, [{ reference: practitioner }], {
          reference: practitioner,
        });
        await client.executeBatch(
          decisionBundle(
            {
              appointment,
              practitioner,
              patient,
              threadId: thread.id ?? '',
              decision,
              now: new Date(),
              when: whenText(appointment.start),
            },
            slots,
          ),
        );
        setState({
          busy: undefined,
          error: undefined,
          done: decision.kind === 'accept' ? 'Appointment accepted.' : 'Appointment declined.',
        });
        return true;
      } catch (error) {
        const reason = error instanceof Error && error.message ? error.message : 'Something went wrong';
        setState({ busy: undefined, error: reason, done: undefined });
        return false;
      }
    },
    [client, practitioner],
  );

  return { state, decide };
}
