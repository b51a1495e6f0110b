// The class of every WebSocket the server accepts. The `ws` library reports a bad frame (too big,
// unmasked, reserved opcode, invalid UTF-8) by closing the socket with the matching code and
// emitting 'error'; an 'error' nobody listens for ends the Node process. Here 'error' never reaches
// listeners: it goes to the one fault handler the server sets on accepting the socket, so no path
// can forget it. Binary frames, which none of the server's JSON protocols speak, close with 1003.
// Frames (messages and pings) are counted per socket in a token bucket: a burst of FRAME_BURST, then
// FRAME_RATE a second; a peer that sends faster is flooding the event loop and is closed with 1008.
import { WebSocket } from 'ws';

/** RFC 6455 close code 1003: a type of data the endpoint cannot accept. */
export const UNSUPPORTED_DATA = 1003;
/** RFC 6455 close code 1008: the peer broke the server's policy (here: too many frames). */
export const TOO_MANY_FRAMES = 1008;
/** Frames one socket may send at once (an app binding 50 subscriptions stays far below). */
export const FRAME_BURST = 200;
/** Frames a second one socket may send after its burst. */
export const FRAME_RATE = 100;
export const TOO_MANY_FRAMES_REASON = `Too many frames: at most ${FRAME_BURST} at once, then ${FRAME_RATE} a second`;

/** What went wrong on one socket: its close code, and `ws`'s error code when it had one. */
export interface WebSocketFault {
  closeCode: number | undefined;
  code: string | undefined;
  message: string;
}

export type FaultHandler = (fault: WebSocketFault) => void;

export class GuardedWebSocket extends WebSocket {
  /** Set when the socket is accepted; until then a fault is only closed, never thrown. */
  onFault: FaultHandler = () => undefined;
  /** Time (ms) of the last sign of life from the peer: a message, ping or pong. */
  lastHeard = Date.now();
  /** Time (ms) the server last pinged the peer. */
  lastPinged = Date.now();
  /** Pings in a row after which nothing was heard before the next one. */
  missedPings = 0;
  private frameTokens = FRAME_BURST;
  private refilledAt = Date.now();
  /** Set once the socket is closed for flooding: frames still buffered are dropped unread. */
  private flooded = false;

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'error') {
      this.onFault(faultOf(args[0]));
      return true;
    }
    if (event === 'message' || event === 'ping') {
      if (this.flooded) return true;
      if (!this.takeFrame()) {
        this.flooded = true;
        this.close(TOO_MANY_FRAMES, TOO_MANY_FRAMES_REASON);
        this.onFault({ closeCode: TOO_MANY_FRAMES, code: 'FRAME_FLOOD', message: TOO_MANY_FRAMES_REASON });
        return true;
      }
    }
    if (event === 'message' || event === 'ping' || event === 'pong') this.lastHeard = Date.now();
    if (event === 'message' && args[1] === true) {
      this.close(UNSUPPORTED_DATA, 'Binary frames are not accepted: send text');
      this.onFault({
        closeCode: UNSUPPORTED_DATA,
        code: 'BINARY_FRAME',
        message: 'Binary frame where text is expected',
      });
      return true;
    }
    return super.emit(event, ...args);
  }

  /** One frame from the bucket, refilled at FRAME_RATE a second up to FRAME_BURST. */
  private takeFrame(): boolean {
    const now = Date.now();
    this.frameTokens = Math.min(
      FRAME_BURST,
      this.frameTokens + ((now - this.refilledAt) * FRAME_RATE) / 1000,
    );
    this.refilledAt = now;
    if (this.frameTokens < 1) return false;
    this.frameTokens -= 1;
    return true;
  }
}

/** `ws` marks its errors with a code (WS_ERR_…) and the close code it sent (a symbol property). */
function faultOf(error: unknown): WebSocketFault {
  if (!(error instanceof Error)) return { closeCode: undefined, code: undefined, message: String(error) };
  const statusSymbol = Object.getOwnPropertySymbols(error).find(
    (symbol) => symbol.description === 'status-code',
  );
  const closeCode = statusSymbol ? (error as unknown as Record<symbol, unknown>)[statusSymbol] : undefined;
  const code = (error as NodeJS.ErrnoException).code;
  return {
    closeCode: typeof closeCode === 'number' ? closeCode : undefined,
    code: typeof code === 'string' ? code : undefined,
    message: error.message,
  };
}
