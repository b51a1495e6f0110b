// START_TIMING=true prints how long each start-up phase took, so a slow `npm start` can be traced
// to the phase that costs.
import { performance } from 'node:perf_hooks';

/** Returns a function that marks the end of one phase: time since the last mark and since launch. */
export function startTimer(enabled: boolean): (phase: string) => void {
  let last = 0;
  return (phase) => {
    if (!enabled) return;
    const now = performance.now();
    console.log(`start-timing: ${phase.padEnd(28)} +${Math.round(now - last)} ms (at ${Math.round(now)} ms)`);
    last = now;
  };
}
