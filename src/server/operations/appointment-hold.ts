// Appointment/$hold (Medplum's scheduling): holds a time found by Appointment/$find while the patient
// decides. Input as Medplum's: `appointment`, a proposed Appointment whose contained Slots (status
// 'busy', one per Schedule) name the time. Answer: 201 with a transaction-response Bundle of the
// Appointment (status 'pending') and its Slots (status 'busy-tentative'), which $find then counts as
// busy. The same rules as $book: a patient holds only for herself; a taken time is a 409.
import type { Appointment, Bundle, Slot } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { Database } from '../db';
import type { RepositoryContext } from '../repo';
import type { InputParameter } from './operation-input';
import { readOperationInput, resourceInputs } from './operation-input';
import { bookAppointment } from './scheduling-booking';
import type { BookingRequest } from './scheduling-booking';

const PARAMETERS: readonly InputParameter[] = [{ name: 'appointment', kind: 'resource', max: 1 }];

/** The booking an Appointment proposal asks for: its contained busy Slots, its Patient participant. */
export function bookingRequestFromAppointment(appointment: Appointment, patient?: string): BookingRequest {
  if (appointment.resourceType !== 'Appointment') {
    throw new OperationOutcomeError(
      badRequest(
        `Expected an Appointment, got ${String(appointment.resourceType)}`,
        'Parameters.appointment',
      ),
    );
  }
  if (appointment.slot) {
    throw new OperationOutcomeError(
      badRequest('Proposed appointment may not have Slot references', 'Parameters.appointment.slot'),
    );
  }
  const slots = (appointment.contained ?? []).filter(
    (resource): resource is Slot => resource.resourceType === 'Slot' && (resource as Slot).status === 'busy',
  );
  if (slots.length === 0) {
    throw new OperationOutcomeError(
      badRequest("Appointment has no contained 'busy' Slot resources", 'Parameters.appointment.contained'),
    );
  }
  const patients = (appointment.participant ?? [])
    .map((participant) => participant.actor?.reference)
    .filter((reference): reference is string => !!reference?.startsWith('Patient/'));
  if (new Set(patients).size > 1) {
    throw new OperationOutcomeError(
      badRequest('An appointment may be for one patient only', 'Parameters.appointment.participant'),
    );
  }
  return {
    slots,
    patient: patient ?? patients[0],
    appointment,
    slotPath: (index) => `Parameters.appointment.contained[${index}]`,
  };
}

export async function holdOperation(
  db: Database,
  context: RepositoryContext,
  body: unknown,
): Promise<Bundle<Appointment | Slot>> {
  const input = readOperationInput('$hold', PARAMETERS, {}, body ?? null);
  const [appointment] = resourceInputs<Appointment>(input, 'appointment');
  if (!appointment) {
    throw new OperationOutcomeError(badRequest("Missing required parameter 'appointment'", 'appointment'));
  }
  return bookAppointment(db, context, bookingRequestFromAppointment(appointment), 'hold');
}
