// A socket's messages leave in the order they were made, though some are ready later than others:
// an event notification naming a Binary waits for its attachment URLs to be signed (SPEC §7 live
// updates), and the heartbeats and events after it must not overtake it (a client re-binds
// with the last event number it saw). Messages ready at once with nothing waiting go out at once.
export class OrderedOutbox {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly write: (text: string) => void) {}

  /** Writes `message` once it is ready and every earlier one is written; one that fails is dropped. */
  push(message: string | Promise<string>): void {
    if (typeof message === 'string' && this.waiting === 0) {
      this.write(message);
      return;
    }
    this.waiting++;
    this.tail = this.tail
      .then(async () => this.write(await message))
      .catch(() => undefined)
      .finally(() => {
        this.waiting--;
      });
  }

  /** Settles when every message pushed so far is written or dropped. */
  get drained(): Promise<void> {
    return this.tail;
  }
}
