import type { PodConfig, PodwardenConfig } from '@podwarden/policies';
import type { PodList } from '@podwarden/runpod-client';
import type {
  AppLogger,
  BudgetLedger,
  IdleStateStore,
  PodEventSink,
  ProxyActivityStore,
  StopService,
} from '@podwarden/platform';
import type { KeepAliveReader } from './keep-alive-reading';
import type { IdleControlPlane } from './volume-observation';
import type { TickStatusEffects } from './tick-status-effects';
import type { OrphanReaper } from './orphan-reaper';
import type { EarlyStops } from '../diagnosis/early-stop';
import type { RhythmKeeper } from '../rhythm/rhythm-keeper';

export interface IdleTickDependencies {
  /** Also the tick's tuning: pods evaluated at once, the per-pod lock lease, the keep-alive read timeout. */
  readonly config: PodwardenConfig;
  readonly client: IdleControlPlane;
  readonly store: IdleStateStore;
  readonly stops: Pick<StopService, 'stopPods' | 'terminatePod'>;
  /** Operators' keep-alives: they hold off the idle stop only. */
  readonly keepAlives: KeepAliveReader;
  /** The inference proxies' traffic: a request in flight through any replica reads Busy. */
  readonly proxyActivity: Pick<ProxyActivityStore, 'read'>;
  readonly logger: AppLogger;
  readonly now: () => number;
  /** The status snapshot and time-to-ready, published from what the tick read; none in most specs. */
  readonly status?: TickStatusEffects;
  /** Phase edges and idle-streak changes, for the gateway's event stream. */
  readonly events?: PodEventSink;
  /** The daily-budget ledger: a run is settled when its volume is seen down or a stop is accepted. */
  readonly ledger?: Pick<BudgetLedger, 'settle'>;
  /** Terminates prefixed pods on no configured volume, from the tick's own list. */
  readonly orphans?: Pick<OrphanReaper, 'sweep'>;
  /** Read the same list after the sweep: confirmed stops (StopConfirmer), the billing census (CostMetrics). */
  readonly listReaders?: readonly TickListReader[];
  /** Diagnoses a boot of ours that is slow or failing from its logs; may ask to stop a restart loop. */
  readonly boots?: EarlyStops;
  /** The usage record and the adaptive window and pre-wakes; without it every pod keeps its fixed window. */
  readonly rhythm?: Pick<RhythmKeeper, 'windowFor' | 'afterTick'>;
}

/** Reads the tick's one account-wide list (`listedAt`: just before it was asked for). Must not throw. */
export interface TickListReader {
  read(pods: readonly PodConfig[], list: PodList, listedAt: number): Promise<void>;
}
