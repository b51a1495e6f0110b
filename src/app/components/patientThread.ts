// A patient's message thread as Medplum's messaging components keep it (ThreadChat, ThreadInbox;
// NewTopicDialog for a new header): a header Communication about her without partOf, each message
// partOf it, and the header's `sent` PATCHed after each message. Shared by the screens that write
// into her thread (messages; an appointment request from get-care belongs there too).
import type { Communication, Patient, Reference } from '@medplum/fhirtypes';
import type { BloomClient } from '../../client';

/** The topic of a thread Bloom opens for a patient's first message. */
export const NEW_THREAD_TOPIC = 'Messages with my care team';

/** The thread a message goes to: the header's id and its participants. */
export interface ThreadTarget {
  readonly id?: string | null;
  readonly recipient?: ReadonlyArray<{
    readonly reference?: string | null;
    readonly display?: string | null;
  } | null> | null;
}

type Recipient = NonNullable<Communication['recipient']>[number];

/** References with a `reference`, display kept, leaving out `except` (the sender herself). */
export function recipientsOf(
  recipients: ThreadTarget['recipient'] | readonly Reference[] | undefined,
  except?: string,
): Recipient[] {
  return (recipients ?? []).flatMap((r): Recipient[] =>
    r?.reference && r.reference !== except
      ? [{ reference: r.reference, ...(r.display ? { display: r.display } : {}) }]
      : [],
  );
}

/**
 * A thread header about her, as Medplum's NewTopicDialog makes one: no partOf, status in-progress,
 * subject and sender her Patient, recipients herself and her care team, a topic.
 */
export function newThread(
  patient: Reference<Patient>,
  careTeam: readonly Reference[] | undefined,
): Communication {
  return {
    resourceType: 'Communication',
    status: 'in-progress',
    subject: patient,
    sender: patient,
    recipient: [...recipientsOf([patient]), ...recipientsOf(careTeam, patient.reference)],
    topic: { text: NEW_THREAD_TOPIC },
  };
}

/** The JSON Patch Medplum's ThreadChat sends to the thread header after each message. */
export function threadTouch(sent: string): { op: 'add'; path: string; value: string }[] {
  return [{ op: 'add', path: '/sent', value: sent }];
}

/**
 * Her most recently active thread header (as Medplum's apps search them: `part-of:missing=true`),
 * or a new one when she has none.
 */
export async function findOrOpenThread(
  client: BloomClient,
  patient: Reference<Patient>,
  careTeam: readonly Reference[] | undefined,
): Promise<Communication> {
  const found = await client.searchResources<Communication>('Communication', {
    subject: patient.reference ?? '',
    'part-of:missing': 'true',
    _sort: '-_lastUpdated',
    _count: '1',
  });
  return found[0] ?? (await client.createResource(newThread(patient, careTeam)));
}

/** After a message: the header's `sent`, as ThreadChat leaves it. A failure only leaves it older. */
export async function touchThread(client: BloomClient, threadId: string, sent: string): Promise<void> {
  await client.patchResource('Communication', threadId, threadTouch(sent)).catch(() => undefined);
}
