// A patient's message thread through the platform client: her most recently active header, or a
// new one, and the header touched after a message (the thread's shape: src/fhir/message-threads.ts).
// Shared by the screens that write into her thread (messages; get-care's appointment request).
import type { Communication, Patient, Reference } from '@medplum/fhirtypes';
import type { BloomClient } from '../../client';
import { newThread, threadTouch } from '../../fhir/message-threads';

/**
 * Her most recently active thread header (as Medplum's apps search them: `part-of:missing=true`),
 * or a new one when she has none, opened by `opener` (a care-team member) or else by her.
 */
export async function findOrOpenThread(
  client: BloomClient,
  patient: Reference<Patient>,
  careTeam: readonly Reference[] | undefined,
  opener?: Communication['sender'],
): Promise<Communication> {
  const found = await client.searchResources<Communication>('Communication', {
    subject: patient.reference ?? '',
    'part-of:missing': 'true',
    _sort: '-_lastUpdated',
    _count: '1',
  });
  if (found[0]) return found[0];
  const header = newThread(patient, careTeam);
  return client.createResource<Communication>(opener ? { ...header, sender: opener } : header);
}

/** After a message: the header's `sent`, as ThreadChat leaves it. A failure only leaves it older. */
export async function touchThread(client: BloomClient, threadId: string, sent: string): Promise<void> {
  await client.patchResource('Communication', threadId, threadTouch(sent)).catch(() => undefined);
}
