// HL7 v2 acknowledgements: the ACK a receiver sends back for a message (MSH with sender and
// receiver swapped, MSA with the acknowledgement code and the message's control id), and reading
// the code of an ACK received. Segments end with a carriage return, as HL7 v2 requires.

const SEGMENT_SEPARATOR = '\r';

function segments(message: string): string[] {
  return message.split(/\r\n|\r|\n/).filter((s) => s !== '');
}

/** MSH fields numbered as in the standard: field(3) is the sending application (MSH-3). */
function mshFields(message: string): ((n: number) => string) | undefined {
  const msh = segments(message).find((s) => s.startsWith('MSH'));
  if (!msh || msh.length < 4) return undefined;
  const separator = msh[3];
  const parts = msh.split(separator);
  // parts[0] is 'MSH' and MSH-1 is the separator itself, so MSH-n is parts[n - 1].
  return (n: number) => (n === 1 ? separator : (parts[n - 1] ?? ''));
}

/** The message's control id (MSH-10), or undefined when it has no MSH segment. */
export function controlIdOf(message: string): string | undefined {
  return mshFields(message)?.(10);
}

function hl7Timestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/**
 * The ACK for `message`: AA (accepted) by default, AE or AR with a text. Throws when the message
 * has no MSH segment, as a receiver would reject it.
 */
export function buildAck(
  message: string,
  code: 'AA' | 'AE' | 'AR' | 'CA' | 'CE' | 'CR' = 'AA',
  text?: string,
  now = new Date(),
): string {
  const field = mshFields(message);
  if (!field) throw new Error('Not an HL7 v2 message: no MSH segment');
  const sep = field(1);
  const encoding = field(2);
  const trigger = field(9).split(encoding[0] ?? '^')[1] ?? '';
  const controlId = field(10);
  const msh = [
    'MSH',
    encoding,
    field(5),
    field(6),
    field(3),
    field(4),
    hl7Timestamp(now),
    '',
    ['ACK', trigger].filter(Boolean).join(encoding[0] ?? '^'),
    `ACK${controlId}`.slice(0, 20),
    field(11) || 'P',
    field(12) || '2.5',
  ].join(sep);
  const msa = ['MSA', code, controlId, ...(text ? [text] : [])].join(sep);
  return [msh, msa].join(SEGMENT_SEPARATOR) + SEGMENT_SEPARATOR;
}

/** MSA-1 of an acknowledgement (AA, AE, AR, CA, CE, CR), or undefined when it has no MSA. */
export function ackCodeOf(message: string): string | undefined {
  const field = mshFields(message);
  const msa = segments(message).find((s) => s.startsWith('MSA'));
  if (!field || !msa) return undefined;
  return msa.split(field(1))[1];
}

/** A commit-level ACK (CA, CE, CR): only says the receiver stored the message. */
export function isCommitAck(message: string): boolean {
  const code = ackCodeOf(message);
  return code === 'CA' || code === 'CE' || code === 'CR';
}
