// The server's one upgrade listener: WebSocket paths added by each plugin in
// any order, exact paths before prefixes, the longest prefix first, 404 for paths nobody serves.
// Unit test with fake requests and sockets; the real sockets of each plugin are tested in
// tests/server/live, tests/server/fhircast/fhircast-hub.test.ts and tests/server/agents/agents.test.ts.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { UpgradePaths, upgradePath } from '../../src/server/upgrade-paths';

function upgrade(paths: UpgradePaths, url: string): { ended: string[] } {
  const ended: string[] = [];
  const socket = { end: (text: string) => ended.push(text) } as unknown as Duplex;
  paths.listener({ url } as IncomingMessage, socket, Buffer.alloc(0));
  return { ended };
}

describe('UpgradePaths', () => {
  test('hands each upgrade to the handler of its path, ignoring the query and trailing slashes', () => {
    const paths = new UpgradePaths();
    const served: string[] = [];
    paths.add('/ws/subscriptions-r4', (request) => served.push(`live ${request.url ?? ''}`));
    paths.addPrefix('/ws/fhircast/', (request) => served.push(`cast ${upgradePath(request)}`));
    paths.add('/ws/agent', () => served.push('agent'));
    upgrade(paths, '/ws/subscriptions-r4?x=1');
    upgrade(paths, '/ws/agent/');
    upgrade(paths, '/ws/fhircast/abc/');
    expect(served).toEqual(['live /ws/subscriptions-r4?x=1', 'agent', 'cast /ws/fhircast/abc']);
  });

  test('answers 404 to a path nobody serves (the bare prefix too) and serves nothing', () => {
    const paths = new UpgradePaths();
    const served: string[] = [];
    paths.addPrefix('/ws/fhircast/', () => served.push('cast'));
    for (const url of ['/ws/nothing-here', '/ws/fhircast', '/ws/fhircast/', '/', '']) {
      expect(upgrade(paths, url).ended).toEqual(['HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n']);
    }
    expect(served).toEqual([]);
  });

  test('an exact path wins over a prefix; the longest prefix wins over a shorter one', () => {
    const paths = new UpgradePaths();
    const served: string[] = [];
    paths.addPrefix('/ws/', () => served.push('ws'));
    paths.addPrefix('/ws/a/', () => served.push('a'));
    paths.add('/ws/a/exact', () => served.push('exact'));
    upgrade(paths, '/ws/a/exact');
    upgrade(paths, '/ws/a/other');
    upgrade(paths, '/ws/b');
    expect(served).toEqual(['exact', 'a', 'ws']);
  });

  test('a path is served once; its removal frees it and later upgrades get 404', () => {
    const paths = new UpgradePaths();
    const stop = paths.add('/ws/agent', () => undefined);
    expect(() => paths.add('/ws/agent/', () => undefined)).toThrow(
      'Upgrades to /ws/agent are already served',
    );
    const stopPrefix = paths.addPrefix('/ws/fhircast/', () => undefined);
    expect(() => paths.addPrefix('/ws/fhircast/', () => undefined)).toThrow(
      'Upgrades below /ws/fhircast/ are already served',
    );
    expect(() => paths.addPrefix('/ws/fhircast', () => undefined)).toThrow(
      "An upgrade prefix ends with '/': /ws/fhircast",
    );
    stop();
    stopPrefix();
    expect(upgrade(paths, '/ws/agent').ended).toHaveLength(1);
    expect(upgrade(paths, '/ws/fhircast/abc').ended).toHaveLength(1);
    expect(() => paths.add('/ws/agent', () => undefined)).not.toThrow();
  });
});
