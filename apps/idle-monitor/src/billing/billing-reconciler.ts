import { Inject, Injectable } from '@nestjs/common';
import {
  findBillingMismatches,
  isPodConfigured,
  lookupVolume,
  podRuns,
  providerSpendOfDay,
  recordedPodsOf,
  toMicros,
  utcDay,
  utcDayStart,
  type BilledBucket,
  type BillingMismatch,
  type PodwardenConfig,
  type RecordedPod,
} from '@podwarden/policies';
import type { RunPodClient, RunPodInsights } from '@podwarden/runpod-client';
import {
  CONFIG,
  LOGGER,
  RUNPOD_CLIENT,
  RUNPOD_INSIGHTS,
  PodEventPublisher,
  mapBounded,
  ActionLog,
  type AppLogger,
  BillingStore,
  type PodEventSink,
  CLOCK,
} from '@podwarden/platform';
import { BillingMetrics } from './billing-metrics';
import { storagePerDay } from './storage-per-day';

/** Nest builds it from its tokens; specs pass a plain object of this shape. */
@Injectable()
export class BillingReconcilerDependencies {
  constructor(
    @Inject(CONFIG) readonly config: PodwardenConfig,
    @Inject(RUNPOD_CLIENT) readonly client: Pick<RunPodClient, 'listPods'>,
    @Inject(RUNPOD_INSIGHTS) readonly insights: Pick<RunPodInsights, 'podBilling' | 'accountBilling'>,
    @Inject(ActionLog) readonly actions: Pick<ActionLog, 'recent'>,
    @Inject(BillingStore) readonly store: Pick<BillingStore, 'save'>,
    @Inject(PodEventPublisher) readonly events: PodEventSink,
    @Inject(BillingMetrics) readonly metrics: BillingMetrics,
    @Inject(LOGGER) readonly logger: AppLogger,
    @Inject(CLOCK) readonly now: () => number,
  ) {}
}

export type ReconcileSummary =
  | {
      readonly kind: 'read';
      readonly pods: number;
      readonly providerTodayUsd: number;
      readonly mismatches: number;
    }
  | { readonly kind: 'unreadable'; readonly reason: string }
  | { readonly kind: 'skipped'; readonly reason: 'unconfigured' };

const HOUR_MS = 3_600_000;
/** Two days of hours: today whatever the time, and a run that began yesterday. */
const LOOKBACK_HOURS = 48;
/** Bounded calls: pods read per reconcile (the newest recorded first) and at once. */
const MAX_PODS = 40;
const CONCURRENCY = 4;
/** Actions read per configured pod to find the pods we started or created. */
const ACTIONS_READ = 500;

/**
 * Reads RunPod's hourly billing for every pod we know or that sits on a configured volume, records its
 * spend (per run, and today's total for the budget) and compares it with our records. Fails closed: one
 * unreadable read leaves the last readable reconcile's figures (never a lower one).
 */
@Injectable()
export class BillingReconciler {
  constructor(private readonly deps: BillingReconcilerDependencies) {}

  async run(signal?: AbortSignal): Promise<ReconcileSummary> {
    const { config, logger } = this.deps;
    const now = this.deps.now();
    const pods = config.pods.filter((pod) => isPodConfigured(config, pod));
    // Without a key or a volume there is nothing to read: the monitor's one start-up Warning says so.
    if (pods.length === 0) return { kind: 'skipped', reason: 'unconfigured' };
    const list = await this.deps.client.listPods(signal);
    if (list.kind === 'unreadable') return this.unreadable(`pod list: ${list.reason}`);
    const recorded: RecordedPod[] = [];
    const onVolume: { podId: string; podName: string }[] = [];
    for (const pod of pods) {
      const actions = await this.deps.actions.recent(pod.name, ACTIONS_READ);
      recorded.push(
        ...recordedPodsOf(pod.name, podRuns({ actions, ready: [], wakes: [] }, now, ACTIONS_READ)),
      );
      for (const action of actions) {
        // A pod we only stopped or terminated is still one we know of: its billing is judged (as unknown).
        if (action.podId !== null && !recorded.some((r) => r.podId === action.podId))
          recorded.push({
            podId: action.podId,
            podName: pod.name,
            pricePerHour: action.pricePerHour,
            spans: [],
          });
      }
      const lookup = lookupVolume(list, pod.volumeId);
      if (lookup.kind === 'found')
        onVolume.push(...lookup.podIds.map((podId) => ({ podId, podName: pod.name })));
    }
    const owners = new Map<string, string>();
    for (const pod of [...recorded, ...onVolume])
      if (!owners.has(pod.podId)) owners.set(pod.podId, pod.podName);
    const podIds = [...owners.keys()].slice(0, MAX_PODS);
    if (owners.size > MAX_PODS)
      logger.warn({ pods: owners.size, read: MAX_PODS }, 'billing: more pods than one reconcile reads');

    const windowStartMs = Math.floor(now / HOUR_MS) * HOUR_MS - LOOKBACK_HOURS * HOUR_MS;
    const window = { startTime: iso(windowStartMs), endTime: iso(Math.ceil((now + 1) / HOUR_MS) * HOUR_MS) };
    const reads = await mapBounded(podIds, CONCURRENCY, (podId) =>
      this.deps.insights.podBilling(podId, window, signal),
    );
    const buckets: BilledBucket[] = [];
    for (const read of reads) {
      if (read.kind === 'unreadable') return this.unreadable(`pod billing: ${read.reason}`);
      buckets.push(...read.buckets.filter((bucket) => owners.has(bucket.podId)));
    }
    const account = await this.deps.insights.accountBilling(
      { startTime: iso(utcDayStart(now) - 2 * 86_400_000), endTime: window.endTime },
      signal,
    );

    const mismatches = findBillingMismatches({ buckets, recorded, onVolume, windowStartMs, now });
    const providerTodayUsd = providerSpendOfDay(buckets, utcDayStart(now));
    const byPodName = new Map<string, BilledBucket[]>(pods.map((pod) => [pod.name, []]));
    for (const bucket of buckets) byPodName.get(owners.get(bucket.podId) ?? '')?.push(bucket);
    await this.deps.store.save(
      {
        asOf: iso(now),
        day: utcDay(now),
        providerTodayUsd,
        storageUsdPerDay: account.kind === 'read' ? storagePerDay(account.buckets, now) : null,
        lagMs: config.billing.lagMinutes * 60_000,
      },
      byPodName,
      toMicros(providerTodayUsd),
    );
    this.deps.metrics.reconciled(providerTodayUsd, mismatches);
    for (const mismatch of mismatches) await this.raise(mismatch);
    logger.info(
      { pods: podIds.length, providerTodayUsd, mismatches: mismatches.length },
      `billing reconciled: ${providerTodayUsd.toFixed(2)} USD billed today by RunPod`,
    );
    return { kind: 'read', pods: podIds.length, providerTodayUsd, mismatches: mismatches.length };
  }

  /** A Warning naming the pod, the hours and the amounts, and the pod's billing-mismatch event. */
  private async raise(mismatch: BillingMismatch): Promise<void> {
    const billed = mismatch.billedUsd.toFixed(4);
    const why =
      mismatch.kind === 'unknown-pod'
        ? `pod ${mismatch.podId} billed ${billed} USD with no start or create of ours`
        : `pod ${mismatch.podId} billed ${billed} USD, more than its recorded life explains (${(mismatch.explainedUsd ?? 0).toFixed(4)} USD)`;
    const detail = `${why}, in ${mismatch.hours} hour(s) from ${mismatch.fromHour} to ${mismatch.toHour}`;
    this.deps.logger.warn(
      { pod: mismatch.podName, ...mismatch, billingMismatch: true },
      `billing mismatch: ${detail}`,
    );
    await this.deps.events.publish(mismatch.podName, 'billing-mismatch', { ...mismatch, detail });
  }

  private unreadable(reason: string): ReconcileSummary {
    this.deps.metrics.unreadable();
    this.deps.logger.warn({ reason }, 'billing unreadable; the last reconcile stands');
    return { kind: 'unreadable', reason };
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
