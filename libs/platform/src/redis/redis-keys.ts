/**
 * Every Redis key the apps write outside BullMQ's own, under one prefix
 * (QUEUE_PREFIX), so test runs and a developer's stack never collide. Pod
 * names are lower-cased: routes match them case-insensitively.
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  private pod(kind: string, podName: string): string {
    return `${this.prefix}:${kind}:${podName.toLowerCase()}`;
  }

  actionLog(podName: string): string {
    return this.pod('actions', podName);
  }
  wakeHistory(podName: string): string {
    return this.pod('wakes', podName);
  }
  wakeProgress(podName: string): string {
    return this.pod('wake-progress', podName);
  }
  /** Keyed by volume: the singleton gate is "one wake per volume". */
  wakeLock(volumeId: string): string {
    return `${this.prefix}:wake-lock:${volumeId}`;
  }
  /** INCR counter: each acquisition of the volume's gate takes the next fencing token. */
  wakeFence(volumeId: string): string {
    return `${this.prefix}:wake-fence:${volumeId}`;
  }
  /** The fencing token an operator's stop took: runs holding an older token were stopped. */
  wakeStopped(volumeId: string): string {
    return `${this.prefix}:wake-stopped:${volumeId}`;
  }
  /** The fencing token of an attempt's first acquisition of the gate (string, TTL): stops fence its re-deliveries. */
  wakeFirstToken(attemptId: string): string {
    return `${this.prefix}:wake-first-token:${attemptId}`;
  }
  /** Hash of billable intents without an outcome yet (the write-ahead log), keyed by intent id. */
  billableIntents(podName: string): string {
    return this.pod('billable-intents', podName);
  }
  /** Marks one durable record written (string, TTL): a retried write of it appends nothing twice. */
  recordWritten(recordId: string): string {
    return `${this.prefix}:record-written:${recordId}`;
  }
  /** Marks a billable intent closed by its outcome (string, TTL): a late answer and a reconcile never both record. */
  intentClosed(intentId: string): string {
    return `${this.prefix}:intent-closed:${intentId}`;
  }
  wakeResult(attemptId: string): string {
    return `${this.prefix}:wake-result:${attemptId}`;
  }
  idleState(podName: string): string {
    return this.pod('idle-state', podName);
  }
  idleLock(podName: string): string {
    return this.pod('idle-lock', podName);
  }
  keepAlive(podName: string): string {
    return this.pod('keepalive', podName);
  }
  /** The shared status snapshot of the pod's volume (what RunPod said, when, and its generation). */
  statusSnapshot(podName: string): string {
    return this.pod('status', podName);
  }
  /** Held by the one reader refreshing the snapshot, across every gateway replica. */
  statusRefreshLock(podName: string): string {
    return this.pod('status-refresh', podName);
  }
  /** Past wakes' time-to-ready, for expectedReadyAt. */
  readyTimes(podName: string): string {
    return this.pod('ready-times', podName);
  }
  /** Stream of model-ready edges (the readyAt of each run in /history). */
  readyLog(podName: string): string {
    return this.pod('ready-log', podName);
  }
  /** Requests the inference proxies are forwarding to the pod (sorted set, scored by lease expiry). */
  proxyInFlight(podName: string): string {
    return this.pod('proxy-inflight', podName);
  }
  proxyLastEnded(podName: string): string {
    return this.pod('proxy-last-ended', podName);
  }
  /** The pod's event stream (XADD by every app, XREAD by every gateway). */
  events(podName: string): string {
    return this.pod('events', podName);
  }
  /** Accepted stops followed until a tick sees their pods down (hash: one entry per pod id). */
  pendingStops(podName: string): string {
    return this.pod('stop-pending', podName);
  }
  /** The daily budget's open reservations, one field per pod name (every replica's). */
  budgetOpen(): string {
    return `${this.prefix}:budget:open`;
  }
  /** The daily budget's settled spend of one UTC day, in micro-dollars. */
  budgetSpent(day: string): string {
    return `${this.prefix}:budget:spent:${day}`;
  }
  /** When the newest idle tick completed, on any replica (worker readiness). */
  idleLastTick(): string {
    return `${this.prefix}:idle-last-tick`;
  }
}
