import { Inject, Injectable } from '@nestjs/common';
import type { PodConfig, PodwardenConfig } from '@podwarden/policies';
import type { PodList } from '@podwarden/runpod-client';
import {
  BudgetLedger,
  CONFIG,
  IdleStateStore,
  KeepAliveStore,
  LOGGER,
  PendingStopStore,
  PodEventPublisher,
  ProxyActivityStore,
  RUNPOD_CLIENT,
  StopService,
  type AppLogger,
  type PodEventSink,
  CLOCK,
  type Clock,
} from '@podwarden/platform';
import type { KeepAliveReader } from './keep-alive-reading';
import type { IdleControlPlane } from './volume-observation';
import { TickStatusEffects } from './tick-status-effects';
import { OrphanReaper } from './orphan-reaper';
import { BootDiagnoser } from '../diagnosis/boot-diagnoser';
import type { EarlyStops } from '../diagnosis/early-stop';
import { RhythmKeeper } from '../rhythm/rhythm-keeper';

/** The readers of the tick's one list after the orphan sweep, in order. */
export const TICK_LIST_READERS = Symbol('TickListReaders');

/**
 * Everything the idle tick uses, every one required: Nest builds it from its tokens, and specs
 * pass a plain object of the same shape (newIdleTickService in ./testing fills in recording fakes).
 */
@Injectable()
export class IdleTickDependencies {
  constructor(
    /** Also the tick's tuning: pods evaluated at once, the per-pod lock lease, the keep-alive read timeout. */
    @Inject(CONFIG) readonly config: PodwardenConfig,
    @Inject(RUNPOD_CLIENT) readonly client: IdleControlPlane,
    @Inject(IdleStateStore) readonly store: Pick<IdleStateStore, 'withLock' | 'load'>,
    @Inject(StopService) readonly stops: Pick<StopService, 'stopPods' | 'terminatePod'>,
    /** Operators' keep-alives: they hold off the idle stop only. */
    @Inject(KeepAliveStore) readonly keepAlives: KeepAliveReader,
    /** The inference proxies' traffic: a request in flight through any replica reads Busy. */
    @Inject(ProxyActivityStore) readonly proxyActivity: Pick<ProxyActivityStore, 'read'>,
    @Inject(LOGGER) readonly logger: AppLogger,
    @Inject(CLOCK) readonly now: Clock,
    /** The status snapshot and time-to-ready, published from what the tick read. */
    @Inject(TickStatusEffects) readonly status: Pick<TickStatusEffects, 'begin' | 'publish' | 'becameReady'>,
    /** Phase edges and idle-streak changes, for the gateway's event stream. */
    @Inject(PodEventPublisher) readonly events: PodEventSink,
    /** The daily-budget ledger: a run is settled when its volume is seen down or a stop is accepted. */
    @Inject(BudgetLedger) readonly ledger: Pick<BudgetLedger, 'settle'>,
    /** Terminates prefixed pods on no configured volume, from the tick's own list. */
    @Inject(OrphanReaper) readonly orphans: Pick<OrphanReaper, 'sweep'>,
    /** Read the same list after the sweep: confirmed stops (StopConfirmer), the billing census (CostMetrics). */
    @Inject(TICK_LIST_READERS) readonly listReaders: readonly TickListReader[],
    /** Diagnoses a boot of ours that is slow or failing from its logs; may ask to stop a restart loop. */
    @Inject(BootDiagnoser) readonly boots: EarlyStops,
    /** The usage record and the adaptive window and pre-wakes (a fixed-window pod keeps its window). */
    @Inject(RhythmKeeper) readonly rhythm: Pick<RhythmKeeper, 'windowFor' | 'afterTick'>,
    /** Stops RunPod accepted and no tick has seen land: an operator's explains a Down edge. */
    @Inject(PendingStopStore) readonly pendingStops: Pick<PendingStopStore, 'all'>,
  ) {}
}

/** Reads the tick's one account-wide list (`listedAt`: just before it was asked for). Must not throw. */
export interface TickListReader {
  read(pods: readonly PodConfig[], list: PodList, listedAt: number): Promise<void>;
}
