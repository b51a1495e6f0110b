// At most `max` searches of one GraphQL document run at once; the rest wait their turn in order.
// graphql-js starts every sibling field's resolver together, so a document with 100 aliased lists
// would otherwise put 100 searches on the database at the same moment and starve other requests.
export function limitConcurrency<A, R>(run: (arg: A) => Promise<R>, max: number): (arg: A) => Promise<R> {
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new RangeError(`The concurrency limit must be a whole number from 1, got ${max}`);
  }
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return async (arg) => {
    if (running < max) running++;
    // A finished search hands its slot straight to the next one waiting (running stays the same).
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await run(arg);
    } finally {
      release();
    }
  };
}
