import { Inject, Injectable } from '@nestjs/common';
import type { PodConfig, PodwardenConfig } from '@podwarden/policies';
import {
  ActionLog,
  CONFIG,
  KeepAliveStore,
  LOGGER,
  PodEventPublisher,
  orWarn,
  withinTimeout,
  type AppLogger,
} from '@podwarden/platform';
import { problem, storeUnavailable } from '../http/problem';
import type { KeepAliveResponseDto } from './keep-alive-response.dto';

/**
 * Sets or clears a keep-alive, which holds off the idle stop only (read every tick). A write Redis does not
 * take is a 503, so no caller believes a pod held that is not. Each change is in the action log with who
 * asked: it keeps a pod billing, like a start.
 */
@Injectable()
export class KeepAliveService {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly store: KeepAliveStore,
    private readonly actions: ActionLog,
    private readonly events: PodEventPublisher,
  ) {}

  async keepAlive(
    pod: PodConfig,
    minutes: number,
    requester: string,
    now: number = Date.now(),
  ): Promise<KeepAliveResponseDto> {
    const ceiling = this.config.keepAliveMaxMinutes;
    if (minutes > ceiling) throw tooLong(pod, ceiling);
    const until = now + Math.round(minutes * 60_000);
    await this.write(pod, 'set', () => this.store.set(pod.name, until, now));
    const keepAliveUntil = new Date(until).toISOString();
    this.logger.info(
      { pod: pod.name, minutes, keepAliveUntil, requestedBy: requester },
      `keep-alive for ${pod.name} until ${keepAliveUntil}`,
    );
    await this.record(pod, now, `set until ${keepAliveUntil} (${minutes} min) by ${requester}`);
    await this.events.publish(pod.name, 'keepalive', { keepAliveUntil, minutes, requestedBy: requester });
    return { name: pod.name, keepAliveUntil };
  }

  async clear(pod: PodConfig, requester: string, now: number = Date.now()): Promise<KeepAliveResponseDto> {
    await this.write(pod, 'clear', () => this.store.clear(pod.name));
    this.logger.info({ pod: pod.name, requestedBy: requester }, `keep-alive for ${pod.name} cleared`);
    await this.record(pod, now, `cleared by ${requester}`);
    await this.events.publish(pod.name, 'keepalive', {
      keepAliveUntil: null,
      minutes: 0,
      requestedBy: requester,
    });
    return { name: pod.name, keepAliveUntil: null };
  }

  private async record(pod: PodConfig, now: number, detail: string): Promise<void> {
    // DurableStream logs the whole entry at Error when Redis does not take it; the change itself stands.
    await this.actions.record({
      at: new Date(now).toISOString(),
      podName: pod.name,
      action: 'KeepAlive',
      podId: null,
      gpuId: null,
      pricePerHour: null,
      httpStatus: 0,
      ok: true,
      trigger: 'manual',
      detail,
    });
  }

  private write(pod: PodConfig, what: 'set' | 'clear', work: () => Promise<void>): Promise<void> {
    return orWarn(() => withinTimeout(work(), this.config.tuning.redisWriteTimeoutMs, `keep-alive ${what}`), {
      logger: this.logger,
      fields: { pod: pod.name },
      message: `keep-alive ${what} failed`,
      fallback: storeUnavailable(
        pod.name,
        'keep-alive-unavailable',
        'Keep-alive store unavailable',
        'Redis did not take the keep-alive change; retry shortly',
      ),
    });
  }
}

/** Above the configured ceiling: the same 400 the request validation gives for more than a day. */
function tooLong(pod: PodConfig, ceiling: number): ReturnType<typeof problem> {
  return problem(
    400,
    'bad-minutes',
    'Bad minutes',
    `minutes must be a number greater than 0 and at most ${ceiling} (KEEP_ALIVE_MAX_MINUTES)`,
    { name: pod.name, field: 'minutes', violations: [{ field: 'minutes', rules: ['max'] }] },
  );
}
