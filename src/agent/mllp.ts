// MLLP, the Minimal Lower Layer Protocol HL7 v2 travels on over TCP: each message is framed as
// 0x0B <message> 0x1C 0x0D. A client sends one framed message and reads framed replies (the ACK);
// a server reads framed messages and answers each with one framed reply. Bytes outside a frame are
// ignored, as receivers commonly do; a frame larger than the limit closes the connection.
import net from 'node:net';
import { DestinationError, socketExchange } from './socket-exchange';

export const MLLP_START = 0x0b;
export const MLLP_END = 0x1c;
export const MLLP_CARRIAGE_RETURN = 0x0d;
/** A frame larger than this is refused: HL7 v2 messages are kilobytes, not megabytes. */
export const MAX_MLLP_FRAME_BYTES = 16 * 1024 * 1024;

const FRAME_END = Buffer.from([MLLP_END, MLLP_CARRIAGE_RETURN]);

export function encodeMllp(message: string): Buffer {
  return Buffer.concat([Buffer.from([MLLP_START]), Buffer.from(message, 'utf8'), FRAME_END]);
}

/** Collects TCP chunks and returns the messages of the frames they complete, in order. */
export class MllpDecoder {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly maxFrameBytes = MAX_MLLP_FRAME_BYTES) {}

  /** Throws when a frame grows past the limit (the caller closes the connection). */
  push(chunk: Buffer): string[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const messages: string[] = [];
    for (;;) {
      const start = this.buffer.indexOf(MLLP_START);
      if (start < 0) {
        this.buffer = Buffer.alloc(0);
        return messages;
      }
      // A frame ends at 0x1C 0x0D; a lone 0x1C inside it is data.
      const end = this.buffer.indexOf(FRAME_END, start + 1);
      if (end < 0) {
        this.buffer = this.buffer.subarray(start);
        if (this.buffer.length > this.maxFrameBytes) {
          throw new Error(`MLLP frame larger than ${this.maxFrameBytes} bytes`);
        }
        return messages;
      }
      messages.push(this.buffer.subarray(start + 1, end).toString('utf8'));
      this.buffer = this.buffer.subarray(end + FRAME_END.length);
    }
  }
}

export interface MllpSendOptions {
  host: string;
  port: number;
  message: string;
  /** False: resolve with undefined once the frame is written. */
  waitForResponse: boolean;
  timeoutMs: number;
  /** A reply this function accepts ends the wait; others (commit ACKs) are skipped. */
  acceptReply?: (reply: string) => boolean;
}

/** Sends one framed message on a new connection and resolves with the first accepted reply. */
export function sendMllp(options: MllpSendOptions): Promise<string | undefined> {
  const { host, port, message, waitForResponse, timeoutMs } = options;
  const accept = options.acceptReply ?? (() => true);
  const url = { scheme: 'mllp', host, port };
  return socketExchange<string>(url, timeoutMs, 'sent no reply', (socket, finish) => {
    const decoder = new MllpDecoder();
    socket.on('connect', () => {
      socket.write(encodeMllp(message), () => {
        if (!waitForResponse) socket.end(() => finish(undefined));
      });
    });
    socket.on('data', (chunk: Buffer) => {
      if (!waitForResponse) return;
      try {
        const reply = decoder.push(chunk).find(accept);
        if (reply !== undefined) finish(undefined, reply);
      } catch (err) {
        finish(new DestinationError((err as Error).message, 'protocol'));
      }
    });
    socket.on('close', () =>
      finish(
        new DestinationError(`mllp://${host}:${port} closed the connection without a reply`, 'protocol'),
      ),
    );
  });
}

/** Answers each framed message with the handler's reply (undefined: no reply). */
export type MllpHandler = (message: string) => string | undefined | Promise<string | undefined>;

/** A TCP server speaking MLLP (the agent's inbound channels; tests' echo destinations). */
export function createMllpServer(handler: MllpHandler): net.Server {
  return net.createServer((socket) => {
    const decoder = new MllpDecoder();
    // Replies go out in the order the messages came, even when the handler is asynchronous.
    let queue: Promise<void> = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      let messages: string[];
      try {
        messages = decoder.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const message of messages) {
        queue = queue
          .then(() => handler(message))
          .then((reply) => {
            if (reply !== undefined && socket.writable) socket.write(encodeMllp(reply));
          })
          .catch(() => {
            socket.destroy();
          });
      }
    });
    socket.on('error', () => socket.destroy());
  });
}
