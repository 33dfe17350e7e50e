import type { AppLogger } from '../logging/logger';
import { errorMessage } from '../util/error-message';
import { withinTimeout } from '../util/within-timeout';
import type { StatusSnapshotStore } from './status-snapshot-store';
import type { VolumeReading } from './volume-reading';

/** Where a reader of RunPod stands before its read: the generation and the time the read began. */
export interface PublishTicket {
  readonly generation: number;
  readonly observedAt: number;
}

/**
 * For the apps that read RunPod anyway (waker, idle monitor): publish what they read as the
 * status snapshot, and invalidate it after a write. Best effort and bounded: a Redis blip here
 * costs GET one refresh, never a wake, a tick or a stop.
 */
export class StatusPublisher {
  constructor(
    private readonly store: Pick<StatusSnapshotStore, 'generation' | 'write' | 'invalidate'>,
    private readonly logger: AppLogger,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Call before the read: a publish then lands only if no write invalidated the snapshot meanwhile. */
  async begin(podName: string): Promise<PublishTicket | null> {
    const observedAt = this.now();
    const generation = await this.quietly(podName, 'read', () => this.store.generation(podName));
    return generation === null ? null : { generation, observedAt };
  }

  async publish(podName: string, ticket: PublishTicket | null, volume: VolumeReading | null): Promise<void> {
    // An unreadable side read says nothing new: a GET that needs the volume reads it itself.
    if (ticket === null || volume === null || volume.kind === 'unreadable' || volume.kind === 'unconfigured')
      return;
    await this.quietly(podName, 'write', () =>
      this.store.write(podName, ticket.generation, { volume, observedAt: ticket.observedAt }),
    );
  }

  async invalidate(podName: string): Promise<void> {
    await this.quietly(podName, 'invalidation', () => this.store.invalidate(podName));
  }

  private async quietly<T>(podName: string, what: string, call: () => Promise<T>): Promise<T | null> {
    try {
      return await withinTimeout(call(), this.timeoutMs, `status snapshot ${what}`);
    } catch (error) {
      this.logger.warn({ pod: podName, err: errorMessage(error) }, `status snapshot ${what} failed`);
      return null;
    }
  }
}
