// One exchange on a new TCP connection, shared by the MLLP and plain TCP destinations: connect,
// let the protocol write and read, and settle once: with its result, on a socket error
// (unreachable), or when the time is up. The socket is always destroyed at the end.
import net from 'node:net';

export class DestinationError extends Error {
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'timeout' | 'protocol',
  ) {
    super(message);
    this.name = 'DestinationError';
  }
}

export type Finish<T> = (error: Error | undefined, value?: T) => void;

export function socketExchange<T>(
  url: { scheme: string; host: string; port: number },
  timeoutMs: number,
  timeoutText: string,
  start: (socket: net.Socket, finish: Finish<T>) => void,
): Promise<T | undefined> {
  const { scheme, host, port } = url;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let settled = false;
    const finish: Finish<T> = (error, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(value);
    };
    const timer = setTimeout(
      () =>
        finish(
          new DestinationError(
            `${scheme}://${host}:${port} ${timeoutText} within ${timeoutMs} ms`,
            'timeout',
          ),
        ),
      timeoutMs,
    );
    socket.on('error', (err) =>
      finish(new DestinationError(`Cannot reach ${scheme}://${host}:${port}: ${err.message}`, 'unreachable')),
    );
    start(socket, finish);
  });
}
