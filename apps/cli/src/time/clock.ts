/**
 * Time as the CLI sees it. Every wait reads and sleeps through a Clock, so a
 * test can run a ten-minute timeout in a second (see scaledClock) and a unit
 * spec can step time by hand.
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

/**
 * A clock running `scale` times faster than the wall clock, from now on:
 * at 600 a 10m timeout passes in one real second. Requests to the gateway
 * still take real time; only the CLI's own waiting is compressed.
 */
export function scaledClock(scale: number): Clock {
  const origin = Date.now();
  return {
    now: () => origin + (Date.now() - origin) * scale,
    sleep: (ms, signal) => realSleep(ms / scale, signal),
  };
}
