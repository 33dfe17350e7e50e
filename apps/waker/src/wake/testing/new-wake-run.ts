import type { PodwardenConfig } from '@podwarden/policies';
import type {
  BudgetLedger,
  PublishTicket,
  ReserveOutcome,
  StatusPublisher,
  VolumeReading,
  WakeProgressStore,
} from '@podwarden/platform';
import { FakeRunPod, RecordedEvents, captureLogs } from '@podwarden/testing';
import type { WakeDependencies } from '../wake-dependencies';
import { WakeJobRunner, type WakeJobRunnerDependencies } from '../wake-job-runner';
import { fixedClock } from './fixed-clock';
import { InstantSleep } from './instant-sleep';
import { MemoryIntents } from './memory-intents';
import { RecordingActionLog } from './recording-action-log';
import { RecordingWakeHistory } from './recording-wake-history';
import { testConfig } from './test-config';

/** The status snapshot: every publish and invalidate kept; no ticket, as with a snapshot Redis refused. */
export class RecordingStatus implements Pick<StatusPublisher, 'begin' | 'publish' | 'invalidate'> {
  readonly published: { podName: string; volume: VolumeReading | null }[] = [];
  readonly invalidated: string[] = [];

  async begin(): Promise<PublishTicket | null> {
    return null;
  }

  async publish(podName: string, _ticket: PublishTicket | null, volume: VolumeReading | null): Promise<void> {
    this.published.push({ podName, volume });
  }

  async invalidate(podName: string): Promise<void> {
    this.invalidated.push(podName);
  }
}

/** The daily-budget ledger: every reservation kept and granted, nothing spent. */
export class RecordingLedger implements Pick<BudgetLedger, 'reserve'> {
  readonly reservations: Parameters<BudgetLedger['reserve']>[] = [];

  async reserve(...args: Parameters<BudgetLedger['reserve']>): Promise<ReserveOutcome> {
    this.reservations.push(args);
    return { kind: 'reserved', spentMicros: 0, reservedMicros: 0, accruingMicros: 0, providerMicros: null };
  }
}

/** The progress shown while a wake runs: every phase kept, cleared at the end. */
export class RecordingProgressStore implements Pick<WakeProgressStore, 'set' | 'clear'> {
  readonly sets: Parameters<WakeProgressStore['set']>[] = [];
  cleared = 0;

  async set(...args: Parameters<WakeProgressStore['set']>): Promise<void> {
    this.sets.push(args);
  }

  async clear(): Promise<void> {
    this.cleared += 1;
  }
}

/** What every wake needs, on recording fakes for whatever the caller does not hand in. */
export function newWakeDependencies(deps: Partial<WakeDependencies> = {}): WakeDependencies {
  const config: PodwardenConfig = deps.config ?? testConfig();
  const intents = deps.intents ?? new MemoryIntents();
  return {
    config,
    client: deps.client ?? new FakeRunPod().scriptedOnly(),
    actions: deps.actions ?? new RecordingActionLog(undefined, intents as MemoryIntents),
    intents,
    logger: deps.logger ?? captureLogs().logger,
    sleep: deps.sleep ?? new InstantSleep().sleep,
    now: deps.now ?? fixedClock(),
    status: deps.status ?? new RecordingStatus(),
    ledger: deps.ledger ?? new RecordingLedger(),
    events: deps.events ?? new RecordedEvents(),
  };
}

/** A WakeJobRunner as Nest builds it, its gate the caller's (the gate is Redis's) and fakes for the rest. */
export function newWakeJobRunner(
  deps: Partial<WakeJobRunnerDependencies> & Pick<WakeJobRunnerDependencies, 'gate'>,
): WakeJobRunner {
  const wake = newWakeDependencies(deps);
  return new WakeJobRunner(
    wake.config,
    wake.logger,
    wake.client,
    wake.actions,
    wake.intents,
    deps.history ?? new RecordingWakeHistory(),
    deps.progress ?? new RecordingProgressStore(),
    deps.gate,
    wake.status,
    wake.events,
    wake.ledger,
    {
      now: wake.now,
      sleep: wake.sleep,
      joinSleep: deps.joinSleep ?? new InstantSleep().sleep,
      gateLeaseMs: deps.gateLeaseMs ?? 30_000,
      joinPollMs: deps.joinPollMs ?? 5,
    },
  );
}
