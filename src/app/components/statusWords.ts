// FHIR status codes in the words a patient uses, one mapping for every patient screen. A few codes read
// differently by what they describe (a 'completed' vaccine was given, a 'fulfilled' visit attended);
// an unknown code still reads as words ("some-code" → "Some code"), never as the raw code.
import { statusColor, type StatusColor } from './statusColors';

/** What the status belongs to, for the codes whose words depend on it. */
export type StatusKind = 'vaccine' | 'appointment' | 'result' | 'medication' | 'form' | 'care-step';

const WORDS: Readonly<Record<string, string>> = {
  draft: 'Draft',
  active: 'Active',
  registered: 'Registered',
  preliminary: 'Preliminary',
  partial: 'Partial',
  requested: 'Requested',
  received: 'Received',
  accepted: 'Accepted',
  ready: 'Ready',
  'in-progress': 'In progress',
  proposed: 'Proposed',
  pending: 'Waiting for confirmation',
  booked: 'Booked',
  arrived: 'Arrived',
  'checked-in': 'Checked in',
  'on-hold': 'On hold',
  amended: 'Updated',
  corrected: 'Corrected',
  completed: 'Completed',
  final: 'Final',
  fulfilled: 'Done',
  connected: 'Connected',
  revoked: 'Withdrawn',
  'entered-in-error': 'Recorded in error',
  cancelled: 'Cancelled',
  rejected: 'Declined',
  failed: 'Failed',
  noshow: 'Missed',
  'not-done': 'Not given',
  disconnected: 'Disconnected',
  urgent: 'Urgent',
  asap: 'As soon as possible',
  stat: 'Right away',
  unknown: 'Unknown',
  retired: 'No longer used',
  waitlist: 'On the waiting list',
  routine: 'Routine',
  stopped: 'Stopped',
  scheduled: 'Scheduled',
  'not-started': 'Not started',
  available: 'Available',
};

const KIND_WORDS: Readonly<Record<StatusKind, Readonly<Record<string, string>>>> = {
  vaccine: { completed: 'Given', 'not-done': 'Not given' },
  appointment: {
    booked: 'Confirmed',
    fulfilled: 'Attended',
    proposed: 'Requested',
    pending: 'Requested',
    arrived: 'Checked in',
  },
  result: { final: 'Final result', preliminary: 'Preliminary result', registered: 'Awaiting results' },
  medication: { active: 'Active prescription', completed: 'Finished', 'on-hold': 'Paused' },
  form: { completed: 'Submitted', 'in-progress': 'Started', amended: 'Updated' },
  'care-step': { completed: 'Done', 'in-progress': 'Due now', scheduled: 'Upcoming' },
};

/** Words for a code this mapping does not list: hyphens to spaces, first letter capital. */
function codeAsWords(status: string): string {
  const words = status.replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Unknown';
}

export interface PatientStatus {
  readonly text: string;
  readonly color: StatusColor;
}

/**
 * The words and colour of a status. An upcoming vaccine (not given yet because its date lies ahead)
 * reads "Due" in the blue of things planned, not the red of things that failed.
 */
export function patientStatus(
  status: string,
  { kind, upcoming = false }: { kind?: StatusKind; upcoming?: boolean } = {},
): PatientStatus {
  if (kind === 'vaccine' && upcoming && status !== 'completed' && status !== 'entered-in-error') {
    return { text: 'Due', color: 'blue' };
  }
  const text = (kind && KIND_WORDS[kind][status]) ?? WORDS[status] ?? codeAsWords(status);
  return { text, color: statusColor(status) };
}
