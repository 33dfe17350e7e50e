import { Inject, Injectable } from '@nestjs/common';
import {
  shedBoot,
  shedEstimate,
  type PodConfig,
  type PodwardenConfig,
  type ShedEstimate,
} from '@podwarden/policies';
import {
  CONFIG,
  LOGGER,
  ReadyTimes,
  WakeHistory,
  orWarn,
  type AppLogger,
  boundedRead,
} from '@podwarden/platform';

/** Retry-After when no estimate of the ready time exists: about one boot-progress step. */
export const FALLBACK_RETRY_AFTER_SECONDS = 30;
// How many attempts back the shed request's wake is looked for (concurrent starts are rare).
const ATTEMPTS_SCANNED = 10;

/**
 * Retry-After for a shed request, from the same records GET's expectedReadyAt
 * reads: the wake the request waits on (wake history) and past wakes'
 * time-to-ready. Redis that does not answer gives the fallback, never an error.
 */
@Injectable()
export class ShedEstimates {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly history: WakeHistory,
    private readonly readyTimes: ReadyTimes,
  ) {}

  async estimate(pod: PodConfig, attemptId: string | null): Promise<ShedEstimate> {
    const now = Date.now();
    const fallback = shedEstimate(null, [], now, FALLBACK_RETRY_AFTER_SECONDS);
    if (attemptId === null) return fallback;
    return orWarn(
      async () => {
        const attempts = await boundedRead(
          this.config,
          this.history.recent(pod.name, ATTEMPTS_SCANNED),
          'wake history read',
        );
        const boot = shedBoot(
          attempts.map((a) => ({ ...a, requestedAt: Date.parse(a.requestedAt) })),
          attemptId,
          now,
        );
        if (boot === null) return fallback;
        const samples = await boundedRead(this.config, this.readyTimes.all(pod.name), 'ready times read');
        return shedEstimate(boot, samples, Date.now(), FALLBACK_RETRY_AFTER_SECONDS);
      },
      {
        logger: this.logger,
        fields: { pod: pod.name },
        message: 'proxy: ready estimate unreadable',
        fallback: () => fallback,
      },
    );
  }
}
