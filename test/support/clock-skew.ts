import { join } from 'node:path';
import { ROOT } from './app-process';
import type { AppLaunch } from './stack';

/** The preload that moves a process's wall clock (see the file's header). */
export const SKEWED_CLOCK_PRELOAD = join(ROOT, 'test', 'support', 'skewed-clock.js');

/** Launch options for an app whose wall clock reads `skewMs` off (negative: behind) Redis's and the simulator's. */
export function skewedClock(skewMs: number): AppLaunch {
  return { env: { CLOCK_SKEW_MS: String(skewMs) }, nodeArgs: ['--require', SKEWED_CLOCK_PRELOAD] };
}
