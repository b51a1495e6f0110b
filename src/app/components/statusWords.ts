// FHIR status codes in the words a patient uses, in the app's language (plainWords/strings.ts), one
// mapping for every patient screen. A few codes read differently by what they describe (a 'completed'
// vaccine was given, a 'fulfilled' visit attended); an unknown code still reads as words ("some-code" →
// "Some code"), never as the raw code.
import type { Message } from '../i18n/catalog';
import { translate } from '../i18n/i18n';
import { statusStrings } from './plainWords/strings';
import { statusColor, type StatusColor } from './statusColors';

/** What the status belongs to, for the codes whose words depend on it. */
export type StatusKind = 'vaccine' | 'appointment' | 'result' | 'medication' | 'form' | 'care-step';

/** Words for a code this mapping does not list: hyphens to spaces, first letter capital. */
function codeAsWords(status: string): string {
  const words = status.replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : translate(statusStrings.unknown);
}

export interface PatientStatus {
  readonly text: string;
  readonly color: StatusColor;
}

const WORDS: Readonly<Record<string, Message>> = statusStrings;

/** The message of a key the mapping lists (own keys only: a code such as "toString" is not one). */
function wordsFor(key: string): Message | undefined {
  return Object.hasOwn(WORDS, key) ? WORDS[key] : undefined;
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
    return { text: translate(statusStrings['vaccine.due']), color: 'blue' };
  }
  const words = (kind && wordsFor(`${kind}.${status}`)) || wordsFor(status);
  const text = words ? translate(words) : codeAsWords(status);
  return { text, color: statusColor(status) };
}
