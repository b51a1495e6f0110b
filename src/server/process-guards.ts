// The last line of defence, not the fix: every stream the server owns handles its own 'error'
// (tests/server/stream-errors prove it), so these handlers should never run. If one does, it says
// enough to find the cause. A rejected promise nobody awaited leaves the process in a known state:
// it is logged and the server goes on. An uncaught exception may have stopped any piece of work
// half-way: the servers and the database are closed cleanly and the process exits with 1.

/** The part of a logger the guards use (Fastify's pino logger has it). */
export interface GuardLogger {
  error(fields: object, message: string): void;
  fatal(fields: object, message: string): void;
}

/** The part of `process` the guards use, so a test can stand in for it. */
export interface GuardedProcess {
  on(event: 'uncaughtException', listener: (error: Error, origin: string) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  exit(code: number): void;
}

export interface ProcessGuardOptions {
  log: GuardLogger;
  /** Closes the servers and the database. */
  shutdown: () => Promise<void>;
  /** How long the shutdown may take before the process exits anyway. */
  shutdownTimeoutMs?: number;
  target?: GuardedProcess;
}

export const UNHANDLED_REJECTION_MESSAGE = 'Unhandled promise rejection (a bug: the server goes on)';
export const UNCAUGHT_EXCEPTION_MESSAGE = 'Uncaught exception: closing the database and exiting';

export function installProcessGuards({
  log,
  shutdown,
  shutdownTimeoutMs = 10_000,
  target = process,
}: ProcessGuardOptions): void {
  let exiting = false;
  target.on('unhandledRejection', (reason) => {
    log.error({ err: reason, guard: 'unhandledRejection' }, UNHANDLED_REJECTION_MESSAGE);
  });
  target.on('uncaughtException', (error, origin) => {
    log.fatal({ err: error, origin, guard: 'uncaughtException' }, UNCAUGHT_EXCEPTION_MESSAGE);
    if (exiting) return;
    exiting = true;
    const timer = setTimeout(() => target.exit(1), shutdownTimeoutMs);
    timer.unref();
    shutdown().then(
      () => target.exit(1),
      (shutdownError: unknown) => {
        log.fatal({ err: shutdownError, guard: 'shutdown' }, 'Shutdown after an uncaught exception failed');
        target.exit(1);
      },
    );
  });
}
