import type { PodConfig } from '@podwarden/policies';
import { EMPTY_IDLE_RECORD, type HeldIdleLock, type IdleRecord } from '@podwarden/platform';
import { FakeRunPod, RecordedEvents, captureLogs, testConfig } from '@podwarden/testing';
import { IdleTickService } from '../idle-tick.service';
import { IdleTickDependencies } from '../idle-tick-dependencies';
import type { TickRhythm } from '../../rhythm/rhythm-keeper';

/** What newIdleTickService built: the service, every dependency it got, and what its fakes were asked. */
export interface BuiltIdleTick {
  readonly service: IdleTickService;
  readonly deps: IdleTickDependencies;
  /** The recording fakes' calls in order, e.g. 'ledger.settle qwen' (overridden dependencies record nothing). */
  readonly calls: string[];
  /** The default event sink (unused when `events` is overridden). */
  readonly events: RecordedEvents;
}

/**
 * The one way specs build the idle tick (immich's newTestService): every dependency is a recording
 * fake that changes nothing (no orphans, no early stop, the fixed window, stops accepted, state kept
 * in memory) unless `overrides` names the real or scripted one.
 */
export function newIdleTickService(overrides: Partial<IdleTickDependencies> = {}): BuiltIdleTick {
  const calls: string[] = [];
  const events = new RecordedEvents();
  const fakes: IdleTickDependencies = {
    config: testConfig({ RUNPOD_POD_NAME: 'qwen' }),
    client: new FakeRunPod(),
    store: memoryStore(calls),
    stops: {
      stopPods: (pod, podIds, trigger) => {
        calls.push(`stops.stopPods ${pod.name} ${podIds.join(',')} ${trigger}`);
        return Promise.resolve(podIds.map((podId) => ({ podId, ok: true, httpStatus: 200, called: true })));
      },
      terminatePod: (pod, podId, trigger) => {
        calls.push(`stops.terminatePod ${pod.name} ${podId} ${trigger}`);
        return Promise.resolve({ podId, ok: true, httpStatus: 200, called: true });
      },
    },
    keepAlives: { get: () => Promise.resolve(null) },
    proxyActivity: { read: () => Promise.resolve({ inFlight: 0, lastEndedAt: null }) },
    logger: captureLogs('debug').logger,
    now: () => Date.UTC(2026, 10, 30, 10, 0, 0),
    status: {
      begin: () => {
        calls.push('status.begin');
        return Promise.resolve(new Map());
      },
      publish: (pod) => {
        calls.push(`status.publish ${pod.name}`);
        return Promise.resolve();
      },
      becameReady: (pod) => {
        calls.push(`status.becameReady ${pod.name}`);
        return Promise.resolve(null);
      },
    },
    events,
    ledger: {
      settle: (podName) => {
        calls.push(`ledger.settle ${podName}`);
        return Promise.resolve(null);
      },
    },
    orphans: {
      sweep: () => {
        calls.push('orphans.sweep');
        return Promise.resolve();
      },
    },
    listReaders: [],
    boots: {
      check: (req) => {
        calls.push(`boots.check ${req.pod.name}`);
        return Promise.resolve(null);
      },
    },
    rhythm: {
      windowFor: (pod) => {
        calls.push(`rhythm.windowFor ${pod.name}`);
        return Promise.resolve(fixedRhythm(pod));
      },
      afterTick: (pod) => {
        calls.push(`rhythm.afterTick ${pod.name}`);
        return Promise.resolve();
      },
    },
    pendingStops: {
      all: (podName) => {
        calls.push(`pendingStops.all ${podName}`);
        return Promise.resolve([]);
      },
    },
  };
  const deps: IdleTickDependencies = { ...fakes, ...overrides };
  return { service: new IdleTickService(deps), deps, calls, events };
}

/** What the rhythm keeper answers for a fixed-window pod. */
function fixedRhythm(pod: PodConfig): TickRhythm {
  const basis = `fixed window of ${pod.idleMinutes} min`;
  const window = { minutes: pod.idleMinutes, policy: 'fixed' as const, basis };
  return { minutes: pod.idleMinutes, window, snapshot: null, run: null, used: false };
}

/** Idle records in memory, every lock granted and held. */
function memoryStore(calls: string[]): IdleTickDependencies['store'] {
  const records = new Map<string, IdleRecord>();
  return {
    load: (podName) => Promise.resolve(records.get(podName) ?? EMPTY_IDLE_RECORD),
    async withLock<T>(
      podName: string,
      _token: string,
      _leaseMs: number,
      _waitMs: number,
      work: (lock: HeldIdleLock) => Promise<T>,
    ) {
      calls.push(`store.withLock ${podName}`);
      const lock: HeldIdleLock = {
        lost: false,
        stillHeld: () => Promise.resolve(true),
        save: (record) => {
          records.set(podName, record);
          return Promise.resolve(true);
        },
      };
      return { ran: true as const, value: await work(lock) };
    },
  };
}
