// The page's queue of writes made without a network (src/client/offline-writes.ts), one per platform
// client: sent when the browser comes back online, when the queue is first used, and after each new
// entry while online.
import type { Resource } from '@medplum/fhirtypes';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { BloomClient } from '../../client';
import { newIdempotencyKey } from '../../client/retry-policy';
import { OfflineWriteQueue, type QueuedWrite } from '../../client/offline-writes';
import { OperationOutcomeError } from '../../fhir/outcomes';
import { useBloomClient } from '../session/BloomClientContext';

const queues = new WeakMap<BloomClient, OfflineWriteQueue>();

export function offlineWriteQueue(client: BloomClient): OfflineWriteQueue {
  let queue = queues.get(client);
  if (!queue) {
    const created = new OfflineWriteQueue(
      client,
      window.localStorage,
      () => client.getActiveLogin()?.profile?.reference,
    );
    window.addEventListener('online', () => void created.flush());
    queue = created;
    queues.set(client, created);
    if (navigator.onLine !== false) void created.flush();
  }
  return queue;
}

export type SaveResult = 'sent' | 'queued';

export interface OfflineWrites {
  /** This screen's waiting or failed writes, oldest first. */
  readonly writes: readonly QueuedWrite[];
  /** Creates the resource now, or keeps it for later when there is no network. */
  save(resource: Resource, label: string): Promise<SaveResult>;
  dismiss(key: string): void;
}

/** A screen's writes that may be made offline; `topic` names the screen's own (e.g. 'vitals/weight'). */
export function useOfflineWrites(topic: string): OfflineWrites {
  const client = useBloomClient();
  const queue = offlineWriteQueue(client);
  const all = useSyncExternalStore(
    useCallback((listener: () => void) => queue.subscribe(listener), [queue]),
    () => queue.list(),
  );
  const writes = useMemo(() => all.filter((write) => write.topic === topic), [all, topic]);

  const save = useCallback(
    async (resource: Resource, label: string): Promise<SaveResult> => {
      if (navigator.onLine === false) {
        queue.enqueue(resource, label, topic);
        return 'queued';
      }
      // The key goes with the write from its first attempt: if that attempt's answer is lost and the
      // write is kept for later, the later send is the same write to the server.
      const key = newIdempotencyKey();
      try {
        await client.createResource(resource, { idempotencyKey: key });
        return 'sent';
      } catch (error) {
        if (error instanceof OperationOutcomeError) throw error;
        queue.enqueue(resource, label, topic, key);
        return 'queued';
      }
    },
    [client, queue, topic],
  );

  return { writes, save, dismiss: useCallback((key: string) => queue.dismiss(key), [queue]) };
}
