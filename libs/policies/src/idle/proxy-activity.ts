import type { IdlePhase } from './idle-phase';
import type { PodSignal } from './pod-signal';

/**
 * What the inference proxies (every replica) published about one pod's
 * traffic: requests forwarded and not yet finished, and when the last one
 * finished. Epoch milliseconds.
 */
export interface ProxyActivity {
  readonly inFlight: number;
  readonly lastEndedAt: number | null;
}

/**
 * Folds proxy traffic into a tick's signal: a request in flight or finished since the last tick (which a
 * scrape may miss), or an unreadable proxy record (no proof of idleness), reads Busy. It overrides only a
 * Ready pod's idle evidence and never touches the runtime cap, so traffic never extends the cap.
 */
export function withProxyActivity(
  signal: PodSignal,
  phase: IdlePhase,
  lastTickAt: number | null,
  proxy: ProxyActivity | null,
): PodSignal {
  if (phase !== 'Ready') return signal;
  if (signal !== 'Idle' && signal !== 'UnreachableButRunning') return signal;
  if (proxy === null || proxy.inFlight > 0) return 'Busy';
  const endedSinceLastTick =
    proxy.lastEndedAt !== null && (lastTickAt === null || proxy.lastEndedAt > lastTickAt);
  return endedSinceLastTick ? 'Busy' : signal;
}
