import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import {
  isPodConfigured,
  planStatusRead,
  statusFreshness,
  type PodConfig,
  type PodwardenConfig,
  type StatusFreshness,
  type StatusReadPlan,
} from '@podwarden/policies';
import type { RunPodClient } from '@podwarden/runpod-client';
import {
  CONFIG,
  LOGGER,
  RUNPOD_CLIENT,
  StatusSnapshotStore,
  errorMessage,
  readVolume,
  type AppLogger,
  type StatusSnapshot,
  type VolumeReading,
  boundedRead,
} from '@podwarden/platform';

/** The volume a GET shows and when RunPod said so (null: nothing was read, the pod is unconfigured). */
export interface ShownVolume {
  readonly volume: VolumeReading;
  readonly observedAt: number | null;
}

// How often a reader waiting for another replica's refresh looks for its snapshot.
const WAIT_POLL_MS = 10;

/**
 * GET's volume, from the shared snapshot: fresh ⇒ served; stale ⇒ served while the refresh lock's holder
 * re-reads RunPod; missing or too old ⇒ wait for it or be it. Redis unreadable ⇒ read RunPod here: never
 * "no pod" for a Redis blip.
 */
@Injectable()
export class VolumeSnapshots {
  private readonly freshness: StatusFreshness;
  private readonly refreshing = new Set<string>();

  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    @Inject(RUNPOD_CLIENT) private readonly client: RunPodClient,
    private readonly store: StatusSnapshotStore,
  ) {
    this.freshness = statusFreshness(config.tuning);
  }

  async current(pod: PodConfig): Promise<ShownVolume> {
    if (!isPodConfigured(this.config, pod)) return { volume: { kind: 'unconfigured' }, observedAt: null };
    try {
      const { snapshot } = await this.redis(this.store.read(pod.name), 'read');
      const plan = this.plan(snapshot);
      if (snapshot !== null && plan === 'serve') return snapshot;
      if (snapshot !== null && plan === 'serve-and-refresh') {
        void this.refreshInBackground(pod);
        return snapshot;
      }
      return await this.refreshFirst(pod);
    } catch (error) {
      this.logger.warn(
        { pod: pod.name, err: errorMessage(error) },
        'pod status: snapshot unreadable in Redis; reading RunPod directly',
      );
      return this.readRunPod(pod);
    }
  }

  /** One background refresh per pod per process; the Redis lock makes it one across replicas. */
  private async refreshInBackground(pod: PodConfig): Promise<void> {
    const key = pod.name.toLowerCase();
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    try {
      await this.refreshLocked(pod);
    } catch (error) {
      this.logger.warn({ pod: pod.name, err: errorMessage(error) }, 'pod status: background refresh failed');
    } finally {
      this.refreshing.delete(key);
    }
  }

  /** Waits for a snapshot to show: its own refresh when it takes the lock, else the lock holder's. */
  private async refreshFirst(pod: PodConfig): Promise<ShownVolume> {
    const deadline = Date.now() + this.freshness.refreshBudgetMs;
    for (;;) {
      const refreshed = await this.refreshLocked(pod);
      if (refreshed !== null) return refreshed;
      if (Date.now() > deadline) {
        // Fail closed: the holder never published; say unreadable, never "no pod".
        return { volume: { kind: 'unreadable' }, observedAt: Date.now() };
      }
      await sleep(WAIT_POLL_MS);
      const { snapshot } = await this.redis(this.store.read(pod.name), 'read');
      if (snapshot !== null && this.plan(snapshot) !== 'refresh-first') return snapshot;
    }
  }

  /**
   * The refreshed snapshot when this reader took the lock; null when another reader holds it. Under
   * the lock the snapshot is read again: a reader that decided on a stale read may take the lock just
   * after another one refreshed and released it, and must not read RunPod a second time.
   */
  private async refreshLocked(pod: PodConfig): Promise<ShownVolume | null> {
    const token = randomUUID();
    const leaseMs = this.freshness.refreshBudgetMs;
    if (!(await this.redis(this.store.tryLock(pod.name, token, leaseMs), 'lock'))) return null;
    try {
      const { snapshot: current, generation } = await this.redis(this.store.read(pod.name), 'read');
      if (current !== null && this.plan(current) === 'serve') return current;
      const snapshot = await this.readRunPod(pod);
      await this.redis(
        this.store.write(pod.name, generation, {
          volume: snapshot.volume,
          observedAt: snapshot.observedAt ?? 0,
        }),
        'write',
      ).catch((error: unknown) => {
        this.logger.warn({ pod: pod.name, err: errorMessage(error) }, 'pod status: snapshot not written');
      });
      return snapshot;
    } finally {
      await this.redis(this.store.unlock(pod.name, token), 'unlock').catch(() => undefined);
    }
  }

  private plan(snapshot: StatusSnapshot | null): StatusReadPlan {
    return planStatusRead(snapshot?.observedAt ?? null, Date.now(), this.freshness);
  }

  private async readRunPod(pod: PodConfig): Promise<ShownVolume> {
    const observedAt = Date.now();
    try {
      return { volume: await readVolume(this.client, pod), observedAt };
    } catch (error) {
      // The client is not supposed to throw; if it does, that is still only a blip to the caller.
      this.logger.warn(
        { pod: pod.name, err: errorMessage(error) },
        'pod status: RunPod read threw; reporting UNREADABLE',
      );
      return { volume: { kind: 'unreadable' }, observedAt };
    }
  }

  private redis<T>(work: Promise<T>, what: string): Promise<T> {
    return boundedRead(this.config, work, `status snapshot ${what}`);
  }
}
