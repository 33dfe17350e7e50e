export class TimeoutError extends Error {}

/**
 * Bounds a Redis call on a request path: ioredis queues commands while it
 * reconnects, and a caller must get an answer (a 503, or a GET without the
 * Redis-backed fields) rather than hang.
 */
export async function withinTimeout<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
