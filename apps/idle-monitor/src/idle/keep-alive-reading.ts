import { applyKeepAlive, type IdleAdvance } from '@podwarden/policies';
import { errorMessage, withinTimeout, type AppLogger, type KeepAliveStore } from '@podwarden/platform';

export type KeepAliveReader = Pick<KeepAliveStore, 'get'>;

/**
 * The pod's keep-alive deadline for one tick. A keep-alive only holds a stop off, so if Redis cannot answer
 * in time the tick goes on as if none were set: an outage must not keep a pod billing, nor hold the tick
 * (and the pod's lock) while ioredis reconnects.
 */
export async function readKeepAlive(
  reader: KeepAliveReader,
  podName: string,
  now: number,
  timeoutMs: number,
  logger: AppLogger,
): Promise<number | null> {
  try {
    // On this monitor's clock, judged from the key's time left: a gateway's skew cannot shorten it.
    return await withinTimeout(reader.get(podName, now), timeoutMs, 'keep-alive read');
  } catch (error) {
    logger.warn({ pod: podName, err: errorMessage(error) }, 'keep-alive unreadable; treating it as not set');
    return null;
  }
}

/**
 * Read only when the tick asks for an idle stop, the one stop a keep-alive
 * can hold off: boot grace and the runtime cap never wait for Redis.
 */
export async function holdForKeepAlive(
  reader: KeepAliveReader,
  podName: string,
  advance: IdleAdvance,
  now: number,
  timing: { readonly timeoutMs: number; readonly logger: AppLogger },
): Promise<IdleAdvance> {
  if (advance.stop !== 'idle') return advance;
  const until = await readKeepAlive(reader, podName, now, timing.timeoutMs, timing.logger);
  const held = applyKeepAlive(advance, until, now);
  if (held.stop === null && until !== null) {
    const iso = new Date(until).toISOString();
    timing.logger.info(
      { pod: podName, keepAliveUntil: iso, idleStreak: advance.state.idleStreak },
      `idle stop held off by keep-alive until ${iso}`,
    );
  }
  return held;
}
