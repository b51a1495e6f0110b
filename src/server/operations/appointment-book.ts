// Appointment/$book (Medplum's scheduling): books a time found by $find. Input as Medplum's: one
// or more `slot` resources (the proposed Slots, one per Schedule, same start and end) and an
// optional `patient-reference`; or, as Medplum's newer form, an `appointment` (a proposal from
// Appointment/$find, its Slots contained). Answer: 201 with a transaction-response Bundle of the
// booked Appointment (status 'booked') and its busy Slots (plus busy-unavailable buffer Slots).
// A time taken meanwhile is a 409; a time outside the availability a 400.
import type { Appointment, Bundle, Slot } from '@medplum/fhirtypes';
import type { Database } from '../db';
import type { RepositoryContext } from '../repo';
import type { InputParameter } from './operation-input';
import { readOperationInput, resourceInputs, stringInput } from './operation-input';
import { bookingRequestFromAppointment } from './appointment-hold';
import { bookAppointment } from './scheduling-booking';

const PARAMETERS: readonly InputParameter[] = [
  { name: 'slot', kind: 'resource', max: '*' },
  { name: 'patient-reference', kind: 'value', max: 1 },
  { name: 'appointment', kind: 'resource', max: 1 },
];

export async function bookOperation(
  db: Database,
  context: RepositoryContext,
  body: unknown,
): Promise<Bundle<Appointment | Slot>> {
  const input = readOperationInput('$book', PARAMETERS, {}, body ?? null);
  const [appointment] = resourceInputs<Appointment>(input, 'appointment');
  const slots = resourceInputs<Slot>(input, 'slot');
  const patient = stringInput(input, 'patient-reference');
  if (appointment && slots.length === 0) {
    return bookAppointment(db, context, bookingRequestFromAppointment(appointment, patient), 'book');
  }
  return bookAppointment(
    db,
    context,
    { slots, patient, slotPath: (index) => `Parameters.parameter[slot][${index}]` },
    'book',
  );
}
