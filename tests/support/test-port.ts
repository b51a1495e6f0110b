// Ports for the servers tests start. findFreePort asks the OS for one, which comes from the ephemeral
// range (32768–60999 on Linux); a full run opens thousands of outgoing connections whose local ports
// come from that same range, so a port found free could be taken before the server listened on it
// (EADDRINUSE). Here ports come from below that range, from a block of its own per jest worker (so the
// workers of one run never meet), handed out in turn from a random place in the block (so two runs
// side by side, whose workers share numbers, seldom meet either).
import net from 'node:net';

const FIRST_PORT = 12_000;
const BLOCK_SIZE = 500;
const BLOCKS = 40;

let nextInBlock = Math.floor(Math.random() * BLOCK_SIZE);

function blockStart(): number {
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  const index = Number.isInteger(worker) && worker > 0 ? (worker - 1) % BLOCKS : 0;
  return FIRST_PORT + index * BLOCK_SIZE;
}

function isFreeOn(port: number, address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    // No IPv6 on this machine: nothing can hold the port there.
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRNOTAVAIL'));
    probe.listen(port, address, () => probe.close(() => resolve(true)));
  });
}

// Fastify on 'localhost' listens on 127.0.0.1 and ::1 and only warns when the second is taken, so a
// port half held by another run would give the browser the other run's server: both must be free.
async function isFree(port: number, host: string): Promise<boolean> {
  const addresses = host === 'localhost' ? ['127.0.0.1', '::1'] : [host];
  for (const address of addresses) if (!(await isFreeOn(port, address))) return false;
  return true;
}

export async function findTestPort(host: string): Promise<number> {
  const start = blockStart();
  for (let tried = 0; tried < BLOCK_SIZE; tried++) {
    const port = start + (nextInBlock++ % BLOCK_SIZE);
    if (await isFree(port, host)) return port;
  }
  throw new Error(`No free port in ${start}–${start + BLOCK_SIZE - 1}`);
}
