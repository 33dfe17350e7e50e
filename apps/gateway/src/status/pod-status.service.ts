import { Inject, Injectable } from '@nestjs/common';
import { isPodConfigured, type IdleState, type PodConfig, type PodwardenConfig } from '@podwarden/policies';
import { lookupVolume } from '@podwarden/policies';
import type { RunPodClient } from '@podwarden/runpod-client';
import {
  CONFIG,
  IdleStateStore,
  BudgetLedger,
  KeepAliveStore,
  LOGGER,
  RUNPOD_CLIENT,
  WakeHistory,
  WakeProgressStore,
  type AppLogger,
  withinTimeout,
  errorMessage,
} from '@podwarden/platform';
import { SingleFlight } from './single-flight';
import { STATUS_GATHER, type Gather } from './status-gather.constant';
import type { PodStatusDto } from './pod-status.dto';
import { podStatusBody, type RecordsReading, type VolumeReading } from './pod-status-view';

/**
 * GET /api/pods/{name}: one volume list and one observe per pod on the volume,
 * shared by every GET of that pod in the same burst. It answers 200 whatever happens
 * below it: a RunPod blip is lookup UNREADABLE, a Redis blip leaves the
 * Redis-backed fields null. Callers poll this while a wake runs, so it must
 * never turn a blip into an error.
 */
@Injectable()
export class PodStatusService {
  private readonly flights: SingleFlight<PodStatusDto>;

  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    @Inject(RUNPOD_CLIENT) private readonly client: RunPodClient,
    private readonly idleStates: IdleStateStore,
    private readonly progress: WakeProgressStore,
    private readonly history: WakeHistory,
    private readonly keepAlives: KeepAliveStore,
    private readonly ledger: BudgetLedger,
    @Inject(STATUS_GATHER) gather: Gather,
  ) {
    this.flights = new SingleFlight<PodStatusDto>(gather);
  }

  read(pod: PodConfig): Promise<PodStatusDto> {
    return this.flights.run(pod.name.toLowerCase(), () => this.readNow(pod));
  }

  /** After a start, stop or keep-alive change: the next GET must not share a read that began before it. */
  invalidate(pod: PodConfig): void {
    this.flights.invalidate(pod.name.toLowerCase());
  }

  /**
   * Runs a write (start, stop, keep-alive) with the pod's shared read ended
   * before and after it: no GET joins a read that began before the write, or
   * one that began while it was running.
   */
  async changing<T>(pod: PodConfig, write: () => Promise<T>): Promise<T> {
    this.invalidate(pod);
    try {
      return await write();
    } finally {
      this.invalidate(pod);
    }
  }

  private async readNow(pod: PodConfig): Promise<PodStatusDto> {
    const [volume, records] = await Promise.all([this.readVolume(pod), this.readRecords(pod)]);
    return podStatusBody(this.config, pod, volume, records);
  }

  private async readVolume(pod: PodConfig): Promise<VolumeReading> {
    if (!isPodConfigured(this.config, pod)) return { kind: 'unconfigured' };
    try {
      const lookup = lookupVolume(await this.client.listPods(), pod.volumeId);
      if (lookup.kind === 'unreadable') return { kind: 'unreadable' };
      if (lookup.kind === 'not-found') return { kind: 'not-found' };
      const pods = await Promise.all(
        lookup.podIds.map(async (podId) => ({ podId, observation: await this.client.observePod(podId) })),
      );
      return { kind: 'found', pods };
    } catch (error) {
      // The client is not supposed to throw; if it does, that is still only a blip to the caller.
      this.logger.warn(
        { pod: pod.name, err: errorMessage(error) },
        'pod status: RunPod read threw; reporting UNREADABLE',
      );
      return { kind: 'unreadable' };
    }
  }

  private async readRecords(pod: PodConfig): Promise<RecordsReading> {
    const [idle, wake, lastWake, keepAlive, spend] = await Promise.all([
      this.readQuietly(
        pod,
        'idle state',
        async (): Promise<IdleState> => (await this.idleStates.load(pod.name)).state,
      ),
      this.readQuietly(pod, 'wake progress', () => this.progress.get(pod.name)),
      this.readQuietly(pod, 'last wake', () => this.history.last(pod.name)),
      this.readQuietly(pod, 'keep-alive', () => this.keepAlives.get(pod.name)),
      this.readQuietly(pod, 'budget ledger', () => this.ledger.figures(Date.now())),
    ]);
    return { idle, wake, lastWake, keepAlive, spend };
  }

  private async readQuietly<T>(
    pod: PodConfig,
    what: string,
    read: () => Promise<T | null>,
  ): Promise<T | null> {
    try {
      return await withinTimeout(read(), this.config.tuning.redisReadTimeoutMs, what);
    } catch (error) {
      this.logger.warn(
        { pod: pod.name, err: errorMessage(error) },
        `pod status: ${what} unreadable; reporting null`,
      );
      return null;
    }
  }
}
