// Writes made without a network, kept on the device and sent when it returns, exactly once: each
// carries the Idempotency-Key it was given when it was made, and every attempt sends the same body
// with that key, so an attempt whose answer was lost and its retry are one write on the server
// (the server replays the first answer). Kept per signed-in profile in the client's storage
// backend under one key; the app deletes it when the profile changes (nothing stays after sign-out).
import type { Resource } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../fhir/outcomes';
import { newIdempotencyKey } from './retry-policy';
import type { StorageBackend } from './storage';

export const OFFLINE_WRITES_STORAGE_KEY = '@bloom/offlineWrites';

export type QueuedWriteState = 'waiting' | 'sending' | 'failed';

export interface QueuedWrite {
  /** Also the Idempotency-Key of every attempt. */
  readonly key: string;
  /** The profile reference of the person who made it; only that person's session sends it. */
  readonly owner: string;
  /** What the screen shows for it, e.g. 'Weight 72 kg'. */
  readonly label: string;
  /** Where it was made (a screen shows its own writes only), e.g. 'vitals/weight'. */
  readonly topic: string;
  readonly resource: Resource;
  readonly queuedAt: string;
  readonly state: QueuedWriteState;
  /** The server's refusal, when state is 'failed' (not sent again). */
  readonly error?: string;
}

/** What the queue needs of the platform client (BloomClient has it). */
export interface OfflineWriteTarget {
  createResource<T extends Resource>(resource: T, options?: { idempotencyKey?: string }): Promise<T>;
}

type Listener = () => void;

/** A network failure (no answer): the write waits. A server's refusal (an outcome) fails it. */
function isRefusal(error: unknown): error is OperationOutcomeError {
  return error instanceof OperationOutcomeError;
}

export class OfflineWriteQueue {
  private readonly listeners = new Set<Listener>();
  private flushing: Promise<number> | undefined;
  private snapshot: { raw: string | null; owner: string | undefined; list: readonly QueuedWrite[] } = {
    raw: null,
    owner: undefined,
    list: [],
  };

  constructor(
    private readonly target: OfflineWriteTarget,
    private readonly backend: StorageBackend,
    /** The signed-in profile reference, undefined when signed out. */
    private readonly owner: () => string | undefined,
  ) {}

  /** The signed-in person's writes, oldest first (the same array until something changes). */
  list(): readonly QueuedWrite[] {
    const raw = this.backend.getItem(OFFLINE_WRITES_STORAGE_KEY);
    const owner = this.owner();
    if (raw !== this.snapshot.raw || owner !== this.snapshot.owner) {
      this.snapshot = { raw, owner, list: this.readAll().filter((write) => write.owner === owner) };
    }
    return this.snapshot.list;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keeps a create for later; throws when nobody is signed in. */
  enqueue(resource: Resource, label: string, topic: string, key: string = newIdempotencyKey()): QueuedWrite {
    const owner = this.owner();
    if (!owner) throw new Error('Sign in to save this on the device');
    const write: QueuedWrite = {
      key,
      owner,
      label,
      topic,
      resource,
      queuedAt: new Date().toISOString(),
      state: 'waiting',
    };
    this.writeAll([...this.readAll(), write]);
    return write;
  }

  /** Removes a failed write the person has read about. */
  dismiss(key: string): void {
    this.writeAll(this.readAll().filter((write) => write.key !== key));
  }

  /**
   * Sends the signed-in person's waiting writes in order; resolves with how many reached the server.
   * Stops at the first network failure (the rest would fail too); one flush runs at a time.
   */
  flush(): Promise<number> {
    this.flushing ??= this.sendWaiting().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async sendWaiting(): Promise<number> {
    let sent = 0;
    // 'sending' too: a page closed mid-send left it so; its key makes sending it again safe.
    for (const write of this.list().filter((w) => w.state !== 'failed')) {
      // Signed out (or someone else signed in) meanwhile: their writes are not ours to send.
      if (this.owner() !== write.owner) break;
      this.update(write.key, { state: 'sending' });
      try {
        await this.target.createResource(write.resource, { idempotencyKey: write.key });
        this.writeAll(this.readAll().filter((w) => w.key !== write.key));
        sent += 1;
      } catch (error) {
        if (isRefusal(error)) {
          this.update(write.key, { state: 'failed', error: error.message });
          continue;
        }
        this.update(write.key, { state: 'waiting' });
        break;
      }
    }
    return sent;
  }

  private update(key: string, change: Partial<Pick<QueuedWrite, 'state' | 'error'>>): void {
    this.writeAll(this.readAll().map((write) => (write.key === key ? { ...write, ...change } : write)));
  }

  private readAll(): QueuedWrite[] {
    const raw = this.backend.getItem(OFFLINE_WRITES_STORAGE_KEY);
    if (!raw) return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      return Array.isArray(parsed) ? (parsed as QueuedWrite[]) : [];
    } catch {
      return [];
    }
  }

  private writeAll(writes: QueuedWrite[]): void {
    if (writes.length === 0) this.backend.removeItem(OFFLINE_WRITES_STORAGE_KEY);
    else this.backend.setItem(OFFLINE_WRITES_STORAGE_KEY, JSON.stringify(writes));
    this.listeners.forEach((listener) => listener());
  }
}
