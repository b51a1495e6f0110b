// A port the OS reports free right now. Used when PORT=0: URLs (Location headers, the app's
// config.json) must be known before the routes are built, so the port is chosen first.
import net from 'node:net';

export function findFreePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('No free port')),
      );
    });
  });
}
