import { join } from 'node:path';
import { ROOT } from './app-process';
import type { AppLaunch } from './stack';

/** The preload that moves a process's wall clock (see the file's header). */
export const SKEWED_CLOCK_PRELOAD = join(ROOT, 'test', 'support', 'skewed-clock.js');

/** Launch options for an app whose wall clock reads `skewMs` off (negative: behind) Redis's and the simulator's. */
export function skewedClock(skewMs: number): AppLaunch {
  return { env: { CLOCK_SKEW_MS: String(skewMs) }, nodeArgs: ['--require', SKEWED_CLOCK_PRELOAD] };
}

/** The preload that steps a process's wall clock forward on each SIGUSR2 (see the file's header). */
export const STEPPED_CLOCK_PRELOAD = join(ROOT, 'test', 'support', 'stepped-clock.js');

/** Launch options for an app whose wall clock steps `stepMs` forward each time stepClock() signals it. */
export function steppedClock(stepMs: number): AppLaunch {
  return { env: { CLOCK_STEP_MS: String(stepMs) }, nodeArgs: ['--require', STEPPED_CLOCK_PRELOAD] };
}

/** Steps the wall clock of a process launched with steppedClock() forward by its step. */
export function stepClock(pid: number | undefined): void {
  if (pid === undefined) throw new Error('no process to step the clock of');
  process.kill(pid, 'SIGUSR2');
}
