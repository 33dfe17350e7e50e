import { Inject, Injectable } from '@nestjs/common';
import {
  bootUnderWay,
  expectedReadyAt,
  rankPods,
  stopConfirmedOf,
  type IdleState,
  type PodConfig,
  type PodwardenConfig,
} from '@podwarden/policies';
import {
  CONFIG,
  IdleStateStore,
  BudgetLedger,
  BillingStore,
  DiagnosisStore,
  KeepAliveStore,
  LOGGER,
  PendingStopStore,
  ReadyTimes,
  RhythmStore,
  StatusPublisher,
  WakeHistory,
  WakeProgressStore,
  type AppLogger,
  orWarn,
  boundedRead,
} from '@podwarden/platform';
import { SingleFlight } from './single-flight';
import type { PodStatusDto } from './pod-status.dto';
import { podStatusBody, type RecordsReading } from './pod-status-view';
import { VolumeSnapshots, type ShownVolume } from './volume-snapshots';

/**
 * GET /api/pods/{name}: records from their Redis keys, the volume from VolumeSnapshots. Always 200: a
 * RunPod blip is lookup UNREADABLE, a Redis blip leaves Redis-backed fields null, because callers poll
 * this while a wake runs and a blip must not become an error.
 */
@Injectable()
export class PodStatusService {
  private readonly flights = new SingleFlight<PodStatusDto>();

  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly snapshots: VolumeSnapshots,
    private readonly publisher: StatusPublisher,
    private readonly idleStates: IdleStateStore,
    private readonly progress: WakeProgressStore,
    private readonly history: WakeHistory,
    private readonly keepAlives: KeepAliveStore,
    private readonly readyTimes: ReadyTimes,
    private readonly ledger: BudgetLedger,
    private readonly pendingStops: PendingStopStore,
    private readonly billing: BillingStore,
    private readonly diagnoses: DiagnosisStore,
    private readonly rhythms: RhythmStore,
  ) {}

  read(pod: PodConfig): Promise<PodStatusDto> {
    return this.flights.run(pod.name.toLowerCase(), () => this.readNow(pod));
  }

  /** After a start, stop or keep-alive change: the next GET must not share a read that began before it. */
  invalidate(pod: PodConfig): void {
    this.flights.invalidate(pod.name.toLowerCase());
  }

  /**
   * Runs a write (start, stop, keep-alive) with the pod's shared read ended before and after it,
   * here and in Redis: no GET, on any gateway, is answered from a read that began before the write.
   */
  async changing<T>(pod: PodConfig, write: () => Promise<T>): Promise<T> {
    this.invalidate(pod);
    await this.publisher.invalidate(pod.name);
    try {
      return await write();
    } finally {
      await this.publisher.invalidate(pod.name);
      this.invalidate(pod);
    }
  }

  private async readNow(pod: PodConfig): Promise<PodStatusDto> {
    // Records first: a wake drops the snapshot before its Completed record shows, so a snapshot read
    // after that record is never older than what the wake saw last.
    const records = await this.readRecords(pod);
    const shown = await this.snapshots.current(pod);
    const body = podStatusBody(this.config, pod, shown, records);
    const readyAt = await this.expectedReadyAt(pod, shown, records);
    return { ...body, expectedReadyAt: readyAt === null ? null : new Date(readyAt).toISOString() };
  }

  /** Reads the wake's start and the past boots only when something is booting: nothing extra otherwise. */
  private async expectedReadyAt(
    pod: PodConfig,
    shown: ShownVolume,
    records: RecordsReading,
  ): Promise<number | null> {
    const reported = shown.volume.kind === 'found' ? rankPods(shown.volume.pods) : null;
    const observation = reported?.observation;
    const last = records.lastWake;
    const facts = {
      wakeRequestedAt:
        records.wake === null ? null : await this.inFlightRequestedAt(pod, records.wake.attemptId),
      lastWake:
        last === null
          ? null
          : {
              requestedAt: Date.parse(last.requestedAt),
              wakeOutcome: last.wakeOutcome,
              podId: last.podId,
              gpuId: last.gpuId,
            },
      podId: reported?.podId ?? null,
      status: observation?.kind === 'found' ? observation.status : null,
      readySince: records.idle?.readySince ?? null,
    };
    const boot = bootUnderWay(facts);
    if (boot === null) return null;
    const samples = await this.readQuietly(pod, 'ready times', () => this.readyTimes.all(pod.name));
    return expectedReadyAt(boot, samples ?? []);
  }

  private async inFlightRequestedAt(pod: PodConfig, attemptId: string): Promise<number | null> {
    const attempts = await this.readQuietly(pod, 'wake request', () => this.history.recent(pod.name, 1));
    const attempt = attempts?.find((a) => a.attemptId === attemptId);
    return attempt === undefined ? null : Date.parse(attempt.requestedAt);
  }

  private async readRecords(pod: PodConfig): Promise<RecordsReading> {
    const [idle, wake, lastWake, keepAlive, spend, stopConfirmed, billing, diagnosis, rhythm] =
      await Promise.all([
        this.readQuietly(
          pod,
          'idle state',
          async (): Promise<IdleState> => (await this.idleStates.load(pod.name)).state,
        ),
        this.readQuietly(pod, 'wake progress', () => this.progress.get(pod.name)),
        this.readQuietly(pod, 'last wake', () => this.history.last(pod.name)),
        this.readQuietly(pod, 'keep-alive', () => this.keepAlives.get(pod.name)),
        this.readQuietly(pod, 'budget ledger', () => this.ledger.figures(Date.now())),
        this.readQuietly(pod, 'pending stops', async () =>
          stopConfirmedOf(await this.pendingStops.all(pod.name)),
        ),
        this.readQuietly(pod, 'provider billing', () => this.billing.snapshot()),
        this.readQuietly(pod, 'boot diagnosis', () => this.diagnoses.latest(pod.name)),
        pod.idlePolicy === 'adaptive'
          ? this.readQuietly(pod, 'idle rhythm', () => this.rhythms.snapshot(pod.name))
          : Promise.resolve(null),
      ]);
    return { idle, wake, lastWake, keepAlive, spend, stopConfirmed, billing, diagnosis, rhythm };
  }

  private readQuietly<T>(pod: PodConfig, what: string, read: () => Promise<T | null>): Promise<T | null> {
    return orWarn(() => boundedRead(this.config, read(), what), {
      logger: this.logger,
      fields: { pod: pod.name },
      message: `pod status: ${what} unreadable; reporting null`,
      fallback: () => null,
    });
  }
}
