import { Inject, Injectable } from '@nestjs/common';
import {
  type IdleAdvance,
  type ListedPod,
  type PodConfig,
  type PodObservation,
  type VolumeLookup,
} from '@podwarden/policies';
import { readySampleOfWake } from './ready-sample';
import { TickStatusEffectsWiring } from './tick-status-effects-wiring';
import {
  errorMessage,
  volumeReadingOf,
  withinTimeout,
  type AppLogger,
  type PublishTicket,
  type ReadyLog,
  type ReadyTimes,
  type StatusPublisher,
  type WakeAttemptView,
  type WakeHistory,
} from '@podwarden/platform';

export interface ReadyEdge {
  readonly podId: string | null;
  readonly at: number;
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
}

/** The ready edge this tick crossed, with the serving pod's listed GPU and price; null when none. */
export function readyEdgeOf(
  advance: IdleAdvance,
  podId: string | null,
  listed: readonly ListedPod[],
): ReadyEdge | null {
  if (!advance.becameReady || advance.state.readySince === null) return null;
  const entry = listed.find((pod) => pod.id === podId);
  return {
    podId,
    at: advance.state.readySince,
    gpuId: entry?.gpuId ?? null,
    pricePerHour: entry?.costPerHr ?? null,
  };
}

/** The pod's latest wake record as read at its ready edge (none: no wake recorded), passed on, not read again. */
export interface LatestWake {
  readonly attempt: WakeAttemptView | undefined;
}

export interface TickStatusEffectsDependencies {
  readonly publisher: Pick<StatusPublisher, 'begin' | 'publish'>;
  readonly history: Pick<WakeHistory, 'recent'>;
  readonly readyTimes: Pick<ReadyTimes, 'add'>;
  /** The durable ready edge, readyAt of the pod's run in /history. */
  readonly readyLog: Pick<ReadyLog, 'record'>;
  readonly logger: AppLogger;
  readonly timeoutMs: number;
}

/**
 * What a tick tells GET as a side effect of what it read anyway: the volume as the status
 * snapshot (only when every pod on it was observed), and, on a ready edge, the wake's
 * time-to-ready for expectedReadyAt. Best effort: never fails or delays a stop.
 */
@Injectable()
export class TickStatusEffects {
  constructor(@Inject(TickStatusEffectsWiring) private readonly deps: TickStatusEffectsDependencies) {}

  /** Before the tick's list: where each pod's snapshot stands. */
  async begin(pods: readonly PodConfig[]): Promise<Map<string, PublishTicket | null>> {
    const tickets = await Promise.all(pods.map((pod) => this.deps.publisher.begin(pod.name)));
    return new Map(pods.map((pod, i) => [pod.name, tickets[i]]));
  }

  async publish(
    pod: PodConfig,
    ticket: PublishTicket | null,
    lookup: VolumeLookup,
    readings: ReadonlyArray<{ readonly podId: string; readonly observation: PodObservation | null }>,
  ): Promise<void> {
    const observed = new Map<string, PodObservation>();
    for (const reading of readings)
      if (reading.observation !== null) observed.set(reading.podId, reading.observation);
    await this.deps.publisher.publish(pod.name, ticket, volumeReadingOf(lookup, observed));
  }

  /**
   * The pod first answered as ready: record the edge, and how long the wake that brought it up took.
   * Answers the wake record it read (null when unreadable), for the rhythm keeper's boot.
   */
  async becameReady(pod: PodConfig, ready: ReadyEdge): Promise<LatestWake | null> {
    const { history, readyTimes, readyLog, logger, timeoutMs } = this.deps;
    const { podId, at, gpuId, pricePerHour } = ready;
    // The ready log times out (and logs the edge) by itself; its write never fails the tick.
    await readyLog.record(pod.name, { at: new Date(at).toISOString(), podId, gpuId, pricePerHour });
    let latest: LatestWake | null = null;
    try {
      const [attempt] = await withinTimeout(history.recent(pod.name, 1), timeoutMs, 'wake history read');
      latest = { attempt };
      const sample = readySampleOfWake(attempt, ready);
      if (sample === null) return latest;
      await withinTimeout(readyTimes.add(pod.name, sample, ready.at), timeoutMs, 'ready time write');
      logger.debug({ pod: pod.name, ...sample }, 'recorded time-to-ready');
    } catch (error) {
      logger.warn({ pod: pod.name, err: errorMessage(error) }, 'time-to-ready not recorded');
    }
    return latest;
  }
}
