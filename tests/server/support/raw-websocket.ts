// A WebSocket client that writes frames by hand over a plain TCP socket, so a test can send what no
// well-behaved library would: oversized, unmasked, binary, invalid UTF-8, reserved opcodes, a
// message that never ends, half a frame. It reads the server's frames (text, ping, close) and,
// unless told not to, answers pings as a browser would.
import crypto from 'node:crypto';
import net from 'node:net';

export const OPCODE = {
  continuation: 0x0,
  text: 0x1,
  binary: 0x2,
  close: 0x8,
  ping: 0x9,
  pong: 0xa,
} as const;

export interface FrameOptions {
  opcode: number;
  payload: Buffer;
  fin?: boolean;
  /** Client frames must be masked (RFC 6455 §5.1); false sends one unmasked. */
  masked?: boolean;
}

/** One frame as a client sends it. */
export function encodeFrame({ opcode, payload, fin = true, masked = true }: FrameOptions): Buffer {
  const length = payload.length;
  const lengthBytes =
    length < 126
      ? Buffer.from([length])
      : length < 65536
        ? Buffer.from([126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([127]), bigEndian64(length)]);
  lengthBytes[0] |= masked ? 0x80 : 0;
  const head = Buffer.from([(fin ? 0x80 : 0) | opcode]);
  if (!masked) return Buffer.concat([head, lengthBytes, payload]);
  const mask = crypto.randomBytes(4);
  const body = Buffer.alloc(length);
  for (let i = 0; i < length; i++) body[i] = payload[i] ^ mask[i & 3];
  return Buffer.concat([head, lengthBytes, mask, body]);
}

function bigEndian64(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return bytes;
}

/** How the connection ended: the server's close frame, or the TCP connection ending without one. */
export interface Closed {
  code: number | undefined;
  reason: string;
}

export class RawWebSocket {
  readonly texts: string[] = [];
  private buffer = Buffer.alloc(0);
  private closedWith: Closed | undefined;
  private readonly closeWaiters: ((closed: Closed) => void)[] = [];
  private textWaiters: { test: (text: string) => boolean; resolve: (text: string) => void }[] = [];
  private pongWaiters: (() => void)[] = [];
  /** false: pings go unanswered, as from a peer that has stopped reading. */
  answerPings = true;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    // The server may reset the connection after closing it; that is how it ends, not a test error.
    socket.on('error', () => undefined);
    socket.on('close', () =>
      this.finish({ code: undefined, reason: 'connection ended without a close frame' }),
    );
  }

  /**
   * Opens `url` (ws://host:port/path) with a real upgrade handshake; rejects unless 101. `early`
   * goes in the same write as the handshake, so the server reads it before anything else.
   */
  static open(url: string, early: Buffer = Buffer.alloc(0)): Promise<RawWebSocket> {
    const { hostname, port, pathname, search } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: hostname, port: Number(port) });
      socket.on('error', reject);
      socket.once('connect', () => {
        socket.write(
          [
            `GET ${pathname}${search} HTTP/1.1`,
            `Host: ${hostname}:${port}`,
            'Upgrade: websocket',
            'Connection: Upgrade',
            `Sec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}`,
            'Sec-WebSocket-Version: 13',
            ...(pathname.endsWith('/ws/graphql') ? ['Sec-WebSocket-Protocol: graphql-transport-ws'] : []),
            '',
            '',
          ].join('\r\n') + early.toString('latin1'),
          'latin1',
        );
      });
      let head = Buffer.alloc(0);
      const onData = (chunk: Buffer): void => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.off('data', onData);
        socket.off('error', reject);
        const status = head.subarray(0, end).toString().split('\r\n')[0];
        if (!status.includes(' 101 ')) {
          socket.destroy();
          reject(new Error(`Upgrade refused: ${status}`));
          return;
        }
        const ws = new RawWebSocket(socket);
        const rest = head.subarray(end + 4);
        if (rest.length > 0) ws.read(rest);
        resolve(ws);
      };
      socket.on('data', onData);
    });
  }

  send(frame: FrameOptions | Buffer): void {
    if (this.socket.writable) this.socket.write(Buffer.isBuffer(frame) ? frame : encodeFrame(frame));
  }

  sendText(text: string): void {
    this.send({ opcode: OPCODE.text, payload: Buffer.from(text) });
  }

  /** The next text message from the server that passes `test` (seen already or still to come). */
  nextText(test: (text: string) => boolean, timeoutMs = 10_000): Promise<string> {
    const seen = this.texts.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`No matching message in ${timeoutMs} ms: ${this.texts.join(' | ')}`)),
        timeoutMs,
      );
      this.textWaiters.push({
        test,
        resolve: (text) => {
          clearTimeout(timer);
          resolve(text);
        },
      });
    });
  }

  /** Sends a ping and waits for the pong: the server still reads this socket. */
  async roundTrip(timeoutMs = 10_000): Promise<void> {
    const pong = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No pong in ${timeoutMs} ms`)), timeoutMs);
      this.pongWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.send({ opcode: OPCODE.ping, payload: Buffer.from('are you there') });
    await pong;
  }

  /** How the connection ended (waits up to `timeoutMs`). */
  closed(timeoutMs = 10_000): Promise<Closed> {
    if (this.closedWith) return Promise.resolve(this.closedWith);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Still open after ${timeoutMs} ms`)), timeoutMs);
      this.closeWaiters.push((closed) => {
        clearTimeout(timer);
        resolve(closed);
      });
    });
  }

  get isClosed(): boolean {
    return this.closedWith !== undefined;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private finish(closed: Closed): void {
    if (this.closedWith) return;
    this.closedWith = closed;
    for (const waiter of this.closeWaiters.splice(0)) waiter(closed);
  }

  /** Server frames are never masked; the server sends no fragments to these tests. */
  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.buffer.length < 2) return;
      const opcode = this.buffer[0] & 0x0f;
      let length = this.buffer[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (this.buffer.length < offset + length) return;
      const payload = this.buffer.subarray(offset, offset + length);
      this.buffer = this.buffer.subarray(offset + length);
      this.onFrame(opcode, payload);
    }
  }

  private onFrame(opcode: number, payload: Buffer): void {
    if (opcode === OPCODE.text) {
      const text = payload.toString();
      this.texts.push(text);
      this.textWaiters = this.textWaiters.filter((waiter) => {
        if (!waiter.test(text)) return true;
        waiter.resolve(text);
        return false;
      });
    } else if (opcode === OPCODE.ping) {
      if (this.answerPings) this.send({ opcode: OPCODE.pong, payload: Buffer.from(payload) });
    } else if (opcode === OPCODE.pong) {
      for (const waiter of this.pongWaiters.splice(0)) waiter();
    } else if (opcode === OPCODE.close) {
      this.finish({
        code: payload.length >= 2 ? payload.readUInt16BE(0) : undefined,
        reason: payload.subarray(2).toString(),
      });
      this.socket.end();
    }
  }
}
