import type { ListedPod, PodConfig } from '@podwarden/policies';
import type { AppLogger, StopService } from '@podwarden/platform';

/** What a stop guard (the ERROR guard, the never-ran stop) acts through; in dry run it only says what it would do. */
export interface GuardStopDependencies<Calls extends keyof StopService> {
  readonly stops: Pick<StopService, Calls>;
  readonly logger: AppLogger;
  readonly dryRun: boolean;
}

/** One volume's guard clocks this tick, beside the pods the tick read and those it already stopped. */
export interface GuardStopRequest<Clocks> {
  readonly pod: PodConfig;
  readonly clocks: Clocks;
  /** Pods this tick's own stop already covered. */
  readonly alreadyStopped: readonly string[];
  readonly listed: readonly ListedPod[];
  readonly now: number;
}
