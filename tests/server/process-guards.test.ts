// Guard rails (unit test with a stand-in for `process`): a rejected promise nobody awaited
// is logged and the process goes on; an uncaught exception is logged, the servers and the database
// are closed, then the process exits with 1, even when closing hangs or fails.
import { EventEmitter } from 'node:events';
import {
  installProcessGuards,
  UNCAUGHT_EXCEPTION_MESSAGE,
  UNHANDLED_REJECTION_MESSAGE,
} from '../../src/server/process-guards';
import type { GuardedProcess, GuardLogger } from '../../src/server/process-guards';

class FakeProcess extends EventEmitter implements GuardedProcess {
  readonly exits: number[] = [];
  exit(code: number): void {
    this.exits.push(code);
  }
}

function recordingLogger(): GuardLogger & { lines: { level: string; fields: object; message: string }[] } {
  const lines: { level: string; fields: object; message: string }[] = [];
  return {
    lines,
    error: (fields, message) => lines.push({ level: 'error', fields, message }),
    fatal: (fields, message) => lines.push({ level: 'fatal', fields, message }),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('issue #19 process guard rails', () => {
  test('an unhandled rejection is logged with its cause and the process goes on', async () => {
    const target = new FakeProcess();
    const log = recordingLogger();
    const shutdown = jest.fn(async () => undefined);
    installProcessGuards({ log, shutdown, target });
    const cause = new Error('nobody awaited me');
    target.emit('unhandledRejection', cause);
    await settle();
    expect(log.lines).toEqual([
      {
        level: 'error',
        fields: { err: cause, guard: 'unhandledRejection' },
        message: UNHANDLED_REJECTION_MESSAGE,
      },
    ]);
    expect(shutdown).not.toHaveBeenCalled();
    expect(target.exits).toEqual([]);
  });

  test('an uncaught exception is logged, everything is closed, then the process exits with 1', async () => {
    const target = new FakeProcess();
    const log = recordingLogger();
    const order: string[] = [];
    installProcessGuards({
      log,
      target,
      shutdown: async () => {
        order.push('shutdown');
      },
    });
    const cause = new Error('state unknown');
    target.emit('uncaughtException', cause, 'uncaughtException');
    target.emit('uncaughtException', new Error('a second one while closing'), 'uncaughtException');
    await settle();
    expect(log.lines[0]).toEqual({
      level: 'fatal',
      fields: { err: cause, origin: 'uncaughtException', guard: 'uncaughtException' },
      message: UNCAUGHT_EXCEPTION_MESSAGE,
    });
    expect(log.lines).toHaveLength(2);
    expect(order).toEqual(['shutdown']);
    expect(target.exits).toEqual([1]);
  });

  test('a shutdown that fails still exits with 1; one that hangs is cut short', async () => {
    const failing = new FakeProcess();
    const log = recordingLogger();
    installProcessGuards({ log, target: failing, shutdown: () => Promise.reject(new Error('db gone')) });
    failing.emit('uncaughtException', new Error('boom'), 'uncaughtException');
    await settle();
    expect(failing.exits).toEqual([1]);
    expect(log.lines.map((line) => line.message)).toContain('Shutdown after an uncaught exception failed');

    const hanging = new FakeProcess();
    installProcessGuards({
      log,
      target: hanging,
      shutdownTimeoutMs: 50,
      shutdown: () => new Promise(() => undefined),
    });
    hanging.emit('uncaughtException', new Error('boom'), 'uncaughtException');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(hanging.exits).toEqual([1]);
  });
});
