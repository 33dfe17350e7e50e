/**
 * Records are written after the RunPod call and must never block or fail the
 * action they describe: a Redis blip is bounded by this timeout and then only
 * logged (the caller logs the full entry at Error, a level nothing filters).
 */
export async function withinTimeout<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
