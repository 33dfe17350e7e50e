import { cancellationOf } from './job-cancellation';

/** Delays are injectable so orchestration tests run without real waiting. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A timer that a cancelled job interrupts at once. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancellationOf(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancellationOf(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
