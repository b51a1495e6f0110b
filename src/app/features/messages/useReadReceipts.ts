// Read receipts for a care-team member reading a patient's thread in her chart: each message from
// someone else that has no `received` yet gets it (a JSON Patch, as Medplum's ThreadChat marks a message
// read), all of a screen's in one batch, so the inbox's unread counts go down. Each message once; a
// failure leaves it unread (it is tried again on the next visit).
import type { Bundle } from '@medplum/fhirtypes';
import { useEffect, useRef } from 'react';
import { useBloomClient } from '../../session/BloomClientContext';
import type { ThreadMessage } from './threadMessages';

/** The unread messages `reader` should mark, by id. */
export function unreadBy(reader: string, messages: readonly ThreadMessage[]): string[] {
  return messages.flatMap((message) =>
    message.id && !message.received && message.sender?.reference !== reader ? [message.id] : [],
  );
}

function toBase64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/** One batch of JSON Patch entries setting `received` on each message. */
export function readReceiptBatch(ids: readonly string[], received: string): Bundle {
  const patch = toBase64(JSON.stringify([{ op: 'add', path: '/received', value: received }]));
  return {
    resourceType: 'Bundle',
    type: 'batch',
    entry: ids.map((id) => ({
      request: { method: 'PATCH', url: `Communication/${id}` },
      resource: { resourceType: 'Binary', contentType: 'application/json-patch+json', data: patch },
    })),
  };
}

/** `reader` undefined: the patient reads her own thread, and nothing is marked. */
export function useReadReceipts(reader: string | undefined, messages: readonly ThreadMessage[]): void {
  const client = useBloomClient();
  const marked = useRef(new Set<string>());
  useEffect(() => {
    if (!reader) return;
    const ids = unreadBy(reader, messages).filter((id) => !marked.current.has(id));
    if (ids.length === 0) return;
    for (const id of ids) marked.current.add(id);
    client.executeBatch(readReceiptBatch(ids, new Date().toISOString())).catch(() => {
      for (const id of ids) marked.current.delete(id);
    });
  }, [client, reader, messages]);
}
