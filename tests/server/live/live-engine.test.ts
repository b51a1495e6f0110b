// Unit: LiveEngine's event log against a fake database: events are
// numbered and replayed from the log; a lost and restored LISTEN connection empties the log, so a
// client re-binding with an earlier event number gets a gap instead of a silent hole; malformed
// payloads are ignored.
import type { FastifyBaseLogger } from 'fastify';
import type { Database, QueryResult } from '../../../src/server/db';
import { LiveEngine, parseNotifyPayload } from '../../../src/server/live/live-engine';

function fakeDatabase() {
  const hooks: { notify?: (payload: string) => void; reconnect?: () => void } = {};
  const db = {
    engine: 'pglite',
    async query<Row>(sql: string): Promise<QueryResult<Row>> {
      if (sql.includes('current_schema')) return { rows: [{ schema: 'public' } as Row], rowCount: 1 };
      // No stored versions: these tests look at the log only.
      return { rows: [], rowCount: 0 };
    },
    transaction: () => Promise.reject(new Error('unused')),
    close: async () => undefined,
    async listen(_channel: string, onNotify: (payload: string) => void, onReconnect?: () => void) {
      hooks.notify = onNotify;
      hooks.reconnect = onReconnect;
      return async () => undefined;
    },
  } as unknown as Database;
  return { db, hooks };
}

const logger = { warn: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;

describe('LiveEngine event log', () => {
  test('parses NOTIFY payloads and refuses malformed ones', () => {
    expect(parseNotifyPayload('12|Communication|abc|w')).toEqual({
      seq: '12',
      resourceType: 'Communication',
      id: 'abc',
      deleted: false,
    });
    expect(parseNotifyPayload('12|Communication|abc|d')?.deleted).toBe(true);
    for (const bad of [
      '',
      'x|Communication|abc|w',
      '12|Communication|abc',
      '12||abc|w',
      '12|Communication|abc|z',
    ]) {
      expect(parseNotifyPayload(bad)).toBeUndefined();
    }
  });

  test('replays from a known event, gives a gap for an unknown one, and after a reconnect', async () => {
    const { db, hooks } = fakeDatabase();
    const engine = new LiveEngine(db, 3, logger);
    await engine.start();
    for (const seq of ['1', '2', '3']) hooks.notify?.(`${seq}|Communication|c${seq}|w`);
    hooks.notify?.('garbage');
    expect(engine.log.since('1')).toEqual({
      kind: 'events',
      events: [
        { seq: '2', resourceType: 'Communication', id: 'c2', deleted: false },
        { seq: '3', resourceType: 'Communication', id: 'c3', deleted: false },
      ],
    });
    hooks.notify?.('4|Communication|c4|w');
    // Capacity 3: event 1 has left the log.
    expect(engine.log.since('1')).toEqual({ kind: 'gap' });
    expect(engine.log.since('2')).toMatchObject({ kind: 'events', events: [{ seq: '3' }, { seq: '4' }] });
    hooks.reconnect?.();
    expect(engine.log.since('4')).toEqual({ kind: 'gap' });
    hooks.notify?.('5|Communication|c5|w');
    expect(engine.log.since('5')).toEqual({ kind: 'events', events: [] });
    await engine.stop();
  });

  test("issue #8: '0' (bound before any event) replays the whole log until the log has dropped one; head is the last heard", async () => {
    const { db, hooks } = fakeDatabase();
    const engine = new LiveEngine(db, 2, logger);
    await engine.start();
    expect(engine.log.head).toBeUndefined();
    expect(engine.log.since('0')).toEqual({ kind: 'events', events: [] });
    hooks.notify?.('7|Communication|a|w');
    hooks.notify?.('8|Communication|a|d');
    expect(engine.log.head).toBe('8');
    expect(engine.log.since('0')).toMatchObject({
      kind: 'events',
      events: [{ seq: '7' }, { seq: '8', deleted: true }],
    });
    hooks.notify?.('9|Communication|b|w');
    expect(engine.log.since('0')).toEqual({ kind: 'gap' });
    await engine.stop();
  });
});
