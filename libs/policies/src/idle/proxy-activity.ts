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
 * Folds the proxies' traffic into one tick's volume signal. A request in
 * flight through a proxy, or one that finished since the last tick, is work
 * the scrape may not show (a /metrics that does not answer, or a turn that
 * began and ended between two scrapes), so it reads Busy. `null` is a proxy
 * record that could not be read: it proves no idleness, so it reads Busy too.
 *
 * Only a Ready pod's idle evidence is overridden: traffic never makes a
 * booting pod ready, never revives a pod observed down, and never turns an
 * Unknown tick into evidence. The runtime cap is untouched (it is judged on
 * the up clock, whatever the signal), so proxy traffic never extends it.
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
