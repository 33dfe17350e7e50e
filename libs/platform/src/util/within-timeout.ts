export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Bounds a call that may otherwise wait for ever: ioredis queues commands
 * while it reconnects, and neither a request nor a record write may hang on
 * that. The work itself is not cancelled; its late answer is ignored.
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
