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
  /** The last model list the pod served through the inference proxy (string, TTL): cold listings read it. */
  modelList(podName: string): string {
    return this.pod('model-list', podName);
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
  /** RunPod's billing as last reconciled (JSON: when, today's provider spend, storage per day). */
  billingSnapshot(): string {
    return `${this.prefix}:billing:snapshot`;
  }
  /** A configured pod's pods' hourly charges as RunPod reported them (hash: one JSON field per pod id). */
  billingPods(podName: string): string {
    return this.pod('billing-pods', podName);
  }
  /** Provider-attributed spend of one UTC day, in micro-dollars: the budget's second measure. */
  budgetProvider(day: string): string {
    return `${this.prefix}:budget:provider:${day}`;
  }
  /** A pod's boot diagnoses, newest first (list, capped). */
  diagnoses(podName: string): string {
    return this.pod('diagnoses', podName);
  }
  /** A pod's recorded uses (sorted set scored by start; member `start:end`): what the adaptive window learns from. */
  usageUses(podName: string): string {
    return this.pod('usage-uses', podName);
  }
  /** A pod's recorded boots, wake to model-ready (sorted set scored by the wake's start; member JSON). */
  usageBoots(podName: string): string {
    return this.pod('usage-boots', podName);
  }
  /** A pod's recorded stops (sorted set scored by time; member JSON). */
  usageStops(podName: string): string {
    return this.pod('usage-stops', podName);
  }
  /** The rhythm the idle monitor last learned for a pod, and the window in force (JSON): GET reads it. */
  rhythm(podName: string): string {
    return this.pod('rhythm', podName);
  }
  /** The pre-wake a pod is up for, if any (JSON): its short window holds until someone uses it. */
  prewakeRun(podName: string): string {
    return this.pod('prewake-run', podName);
  }
  /** Pre-wakes of one pod on one UTC day (INCR, TTL): the per-day cap across replicas. */
  prewakeCount(podName: string, day: string): string {
    return `${this.pod('prewake-count', podName)}:${day}`;
  }
}
