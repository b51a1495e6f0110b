// The subscription transport's pure parts: the /ws/graphql URL beside the FHIR base, the
// capped reconnection delay, and the LiveConnection listeners screens use to refetch after a reconnect.
import { graphqlWsUrl } from '../../src/graphql/lazy-ws-link';
import { LiveConnection } from '../../src/graphql/live-connection';
import { retryDelayMs, WS_RETRY_MAX_DELAY_MS } from '../../src/graphql/ws-link';

describe('issue #8 graphql-ws link', () => {
  test('graphqlWsUrl: ws for http, wss for https, path prefix kept, trailing slash optional', () => {
    expect(graphqlWsUrl('http://localhost:8103/fhir/R4/')).toBe('ws://localhost:8103/ws/graphql');
    expect(graphqlWsUrl('https://api.example/fhir/R4')).toBe('wss://api.example/ws/graphql');
    expect(graphqlWsUrl('https://api.example/bloom/fhir/R4/')).toBe('wss://api.example/bloom/ws/graphql');
  });

  test('retryDelayMs doubles from 1 s and never exceeds the cap (plus jitter under 300 ms)', () => {
    expect(retryDelayMs(0)).toBeGreaterThanOrEqual(1000);
    expect(retryDelayMs(0)).toBeLessThan(1300);
    expect(retryDelayMs(2)).toBeGreaterThanOrEqual(4000);
    expect(retryDelayMs(50)).toBeLessThan(WS_RETRY_MAX_DELAY_MS + 300);
    expect(retryDelayMs(50)).toBeGreaterThanOrEqual(WS_RETRY_MAX_DELAY_MS);
  });

  test('LiveConnection calls every listener on each connection until it unsubscribes', () => {
    const live = new LiveConnection();
    const calls: string[] = [];
    const stopA = live.onConnected(() => calls.push('a'));
    live.onConnected(() => calls.push('b'));
    live.connected();
    stopA();
    live.connected();
    expect(calls).toEqual(['a', 'b', 'b']);
  });
});
