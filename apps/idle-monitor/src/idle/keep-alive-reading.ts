import type { AppLogger, KeepAliveStore } from '@podwarden/platform';

export type KeepAliveReader = Pick<KeepAliveStore, 'get'>;

/**
 * The pod's keep-alive deadline for one tick. A keep-alive only ever holds a
 * stop off, so when Redis cannot answer (an error, or no answer in time) the
 * tick goes on as if none were set: an outage must not keep a pod billing,
 * nor hold the tick (and the pod's lock) while ioredis reconnects.
 */
export async function readKeepAlive(
  reader: KeepAliveReader,
  podName: string,
  timeoutMs: number,
  logger: AppLogger,
): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`keep-alive read timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([reader.get(podName), timeout]);
  } catch (error) {
    logger.warn(
      { pod: podName, err: error instanceof Error ? error.message : String(error) },
      'keep-alive unreadable; treating it as not set',
    );
    return null;
  } finally {
    clearTimeout(timer);
  }
}
