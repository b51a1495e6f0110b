// The bounded log of recent write events, in the order this instance heard them (beyond
// the anchors, a client that re-binds says the last event it saw and gets what it missed). Arrival
// order, not seq order: two transactions may commit in the opposite order of their seqs, and a
// client that saw event N has seen everything this instance delivered before N.

export interface WriteEvent {
  /** resource_history.seq of the version: the event number, unique across instances. */
  seq: string;
  resourceType: string;
  id: string;
  deleted: boolean;
}

/** The event number before every event: a client bound before any write was heard. */
export const START = '0';

export type EventsSince = { kind: 'events'; events: WriteEvent[] } | { kind: 'gap' };

export class EventLog {
  private readonly entries: WriteEvent[] = [];
  private readonly positions = new Map<string, number>();
  /** How many entries were dropped from the front: positions are absolute. */
  private dropped = 0;

  constructor(readonly capacity: number) {}

  append(event: WriteEvent): void {
    this.positions.set(event.seq, this.dropped + this.entries.length);
    this.entries.push(event);
    if (this.entries.length > this.capacity) {
      const old = this.entries.shift() as WriteEvent;
      this.positions.delete(old.seq);
      this.dropped++;
    }
  }

  /**
   * Forgets every event (the listening connection was lost, so notifications may be missing):
   * a client re-binding with an earlier event number gets a gap and refetches.
   */
  clear(): void {
    this.dropped += this.entries.length;
    this.entries.length = 0;
    this.positions.clear();
  }

  /** The last event heard, if the log holds any: where a client that binds now starts. */
  get head(): string | undefined {
    return this.entries.at(-1)?.seq;
  }

  /**
   * The events heard after `seq`, or a gap when `seq` is not (or no longer) in the log. '0' means
   * "from the start": every event, as long as the log has never dropped any.
   */
  since(seq: string): EventsSince {
    if (seq === START && this.dropped === 0) {
      return { kind: 'events', events: [...this.entries] };
    }
    const position = this.positions.get(seq);
    if (position === undefined) {
      return { kind: 'gap' };
    }
    return { kind: 'events', events: this.entries.slice(position - this.dropped + 1) };
  }

  get size(): number {
    return this.entries.length;
  }
}
