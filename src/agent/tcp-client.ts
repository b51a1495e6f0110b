// A plain TCP destination (tcp://host:port): the body is written as is and the sending side is
// closed; the reply is everything the peer sends back until it closes its side. No framing, so
// "end of reply" can only be the peer's close (printers, label makers, simple line devices).
import { DestinationError, socketExchange } from './socket-exchange';

/** Replies larger than this are cut off with an error rather than buffered without end. */
const MAX_TCP_REPLY_BYTES = 16 * 1024 * 1024;

export interface TcpSendOptions {
  host: string;
  port: number;
  body: string;
  waitForResponse: boolean;
  timeoutMs: number;
}

export function sendTcp(options: TcpSendOptions): Promise<string | undefined> {
  const { host, port, body, waitForResponse, timeoutMs } = options;
  const url = { scheme: 'tcp', host, port };
  const timeoutText = waitForResponse ? 'did not reply and close' : 'did not accept the data';
  return socketExchange<string>(url, timeoutMs, timeoutText, (socket, finish) => {
    const chunks: Buffer[] = [];
    let size = 0;
    socket.on('connect', () => {
      socket.end(body, 'utf8', () => {
        if (!waitForResponse) finish(undefined);
      });
    });
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_TCP_REPLY_BYTES) {
        finish(
          new DestinationError(
            `Reply from tcp://${host}:${port} is larger than ${MAX_TCP_REPLY_BYTES} bytes`,
            'protocol',
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    socket.on('end', () => finish(undefined, Buffer.concat(chunks).toString('utf8')));
  });
}
