import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { heldWakeVerdict, type PodConfig } from '@podwarden/policies';
import { LOGGER, PodEventPublisher, errorMessage, type AppLogger } from '@podwarden/platform';
import { PodReadiness } from './pod-readiness';
import { ProxyWakes } from './proxy-wakes';

export type HoldEnding =
  | { readonly kind: 'ready'; readonly baseUrl: string }
  | { readonly kind: 'failed'; readonly refused: boolean; readonly message: string }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'aborted' };

interface Waiter {
  readonly deadline: number;
  /** The wake this request waits on; moved on to the pod's current wake once it ended well. */
  attemptId: string;
  readonly settle: (ending: HoldEnding) => void;
}

interface PodHolds {
  readonly pod: PodConfig;
  readonly waiters: Waiter[];
  polling: boolean;
}

/** How often held requests look at Redis for readiness and the wake's end (reads only). */
export const HOLD_POLL_MS = 250;

/**
 * Requests held for a cold pod, per pod, in arrival order. One poll loop per pod with waiters (not per
 * request) watches readiness and the wake's result: ready releases them in order, a failed wake with its
 * reason, and a waiter whose client left is just dropped.
 */
@Injectable()
export class HeldRequests implements OnModuleDestroy {
  private readonly pods = new Map<string, PodHolds>();
  private closed = false;

  constructor(
    private readonly readiness: PodReadiness,
    private readonly wakes: ProxyWakes,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly events: PodEventPublisher,
  ) {}

  count(pod: PodConfig): number {
    return this.pods.get(pod.name.toLowerCase())?.waiters.length ?? 0;
  }

  hold(pod: PodConfig, holdMs: number, signal: AbortSignal, attemptId: string): Promise<HoldEnding> {
    // Shutting down: no look would ever release it, so it ends now rather than hanging its client.
    if (this.closed) return Promise.resolve({ kind: 'timeout' });
    const key = pod.name.toLowerCase();
    const holds = this.pods.get(key) ?? { pod, waiters: [], polling: false };
    this.pods.set(key, holds);
    return new Promise<HoldEnding>((resolve) => {
      const waiter: Waiter = {
        deadline: Date.now() + holdMs,
        attemptId,
        settle: (ending) => {
          const at = holds.waiters.indexOf(waiter);
          if (at < 0) return;
          holds.waiters.splice(at, 1);
          signal.removeEventListener('abort', onAbort);
          resolve(ending);
        },
      };
      const onAbort = (): void => waiter.settle({ kind: 'aborted' });
      holds.waiters.push(waiter);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort);
      this.startPolling(holds);
    });
  }

  onModuleDestroy(): void {
    this.closed = true;
    for (const holds of this.pods.values()) {
      for (const waiter of [...holds.waiters]) waiter.settle({ kind: 'timeout' });
    }
  }

  private startPolling(holds: PodHolds): void {
    if (holds.polling) return;
    holds.polling = true;
    const loop = async (): Promise<void> => {
      while (holds.waiters.length > 0 && !this.closed) {
        await this.pollOnce(holds);
        if (holds.waiters.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, HOLD_POLL_MS));
      }
      holds.polling = false;
    };
    void loop();
  }

  private async pollOnce(holds: PodHolds): Promise<void> {
    try {
      const readiness = await this.readiness.read(holds.pod);
      if (readiness.kind === 'ready') {
        // In arrival order: each forward starts in the order its request came.
        const released = [...holds.waiters];
        for (const waiter of released) waiter.settle(readiness);
        this.announce(holds.pod, { action: 'released', requests: released.length });
        return;
      }
      for (const attemptId of new Set(holds.waiters.map((w) => w.attemptId))) {
        await this.followWake(holds, attemptId);
      }
    } catch (error) {
      // A blip reading Redis or RunPod: the held requests wait for the next look (or their deadline).
      this.logger.warn(
        { pod: holds.pod.name, err: errorMessage(error) },
        'held requests: readiness unreadable',
      );
    }
    const now = Date.now();
    const expired = holds.waiters.filter((w) => w.deadline <= now);
    for (const waiter of expired) waiter.settle({ kind: 'timeout' });
    if (expired.length > 0) this.announce(holds.pod, { action: 'timeout', requests: expired.length });
  }

  /**
   * The waiters of one wake: released with its reason when it failed (never a new wake: a refusal stands);
   * if it ended well and the pod is still not up, moved to the pod's current wake, or a new one.
   */
  private async followWake(holds: PodHolds, attemptId: string): Promise<void> {
    const ending = await this.wakes.ending(attemptId);
    if (ending === null) return;
    const waiting = holds.waiters.filter((w) => w.attemptId === attemptId);
    const verdict = heldWakeVerdict(ending);
    if (verdict.kind === 'fail') {
      const failed: HoldEnding = { kind: 'failed', refused: verdict.refused, message: verdict.message };
      for (const waiter of waiting) waiter.settle(failed);
      this.announce(holds.pod, { action: 'failed', requests: waiting.length, reason: verdict.message });
      return;
    }
    const current = await this.wakes.ensure(holds.pod);
    for (const waiter of waiting) waiter.attemptId = current;
  }

  /** One event per batch, never per request: the pod's stream is for people and consoles. */
  private announce(pod: PodConfig, data: Record<string, unknown>): void {
    void this.events.publish(pod.name, 'proxy', data);
  }
}
