// Categories of the Communications a patient sends (SPEC §7 "Create Communication (message or
// appointment request)"): the care team tells a plain message from an appointment request by this
// code, and the messages screen marks a request in the thread. Shared by get-care and messages.
export const COMMUNICATION_CATEGORY_SYSTEM = 'https://bloom.example/fhir/CodeSystem/communication-category';

export const APPOINTMENT_REQUEST_CATEGORY = {
  system: COMMUNICATION_CATEGORY_SYSTEM,
  code: 'appointment-request',
  display: 'Appointment request',
} as const;

export const MESSAGE_CATEGORY = {
  system: COMMUNICATION_CATEGORY_SYSTEM,
  code: 'message',
  display: 'Message',
} as const;
