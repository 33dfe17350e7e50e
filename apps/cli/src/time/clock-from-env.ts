import { CliError } from '../output/cli-error';
import { scaledClock, systemClock, type Clock } from './clock';

/** Reserved for tests: how many times faster than real time the CLI's clock runs. */
export const CLOCK_SCALE_VARIABLE = 'PODWARDEN_TEST_CLOCK_SCALE';

const MAX_SCALE = 100_000;

/** The system clock, or a scaled one when the test variable is set; a bad value is refused, never ignored. */
export function clockFromEnv(env: NodeJS.ProcessEnv): Clock {
  const raw = env[CLOCK_SCALE_VARIABLE];
  if (raw === undefined || raw === '') return systemClock;
  const scale = /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!(scale >= 1 && scale <= MAX_SCALE)) {
    throw new CliError('bad_request', `${CLOCK_SCALE_VARIABLE} must be a number from 1 to ${MAX_SCALE}`);
  }
  return scale === 1 ? systemClock : scaledClock(scale);
}
