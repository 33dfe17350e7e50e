/**
 * Time as the CLI sees it. Every wait reads and sleeps through a Clock, so a
 * unit spec can step time by hand (a ten-minute wait runs in microseconds).
 */
export interface Clock {
  /** Milliseconds since the epoch, on this clock. */
  now(): number;
  /** Resolves after `ms` on this clock, or as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: realSleep,
};
