import { Inject, Injectable } from '@nestjs/common';
import type { PodConfig, PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  KeepAliveStore,
  LOGGER,
  PodEventPublisher,
  errorMessage,
  withinTimeout,
  type AppLogger,
} from '@podwarden/platform';
import { problem } from '../http/problem';
import type { KeepAliveResponseDto } from './keep-alive-response.dto';

/**
 * Sets or clears a pod's keep-alive. It holds off the idle stop only; the
 * idle monitor reads it on every tick, so nothing else is told. A write Redis
 * does not take is a 503: the caller must not believe the pod is held up.
 */
@Injectable()
export class KeepAliveService {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly store: KeepAliveStore,
    private readonly events: PodEventPublisher,
  ) {}

  async keepAlive(pod: PodConfig, minutes: number, now: number = Date.now()): Promise<KeepAliveResponseDto> {
    const until = now + Math.round(minutes * 60_000);
    await this.write(pod, 'set', () => this.store.set(pod.name, until, now));
    const keepAliveUntil = new Date(until).toISOString();
    this.logger.info(
      { pod: pod.name, minutes, keepAliveUntil },
      `keep-alive for ${pod.name} until ${keepAliveUntil}`,
    );
    await this.events.publish(pod.name, 'keepalive', { keepAliveUntil, minutes });
    return { name: pod.name, keepAliveUntil };
  }

  async clear(pod: PodConfig): Promise<KeepAliveResponseDto> {
    await this.write(pod, 'clear', () => this.store.clear(pod.name));
    this.logger.info({ pod: pod.name }, `keep-alive for ${pod.name} cleared`);
    await this.events.publish(pod.name, 'keepalive', { keepAliveUntil: null, minutes: 0 });
    return { name: pod.name, keepAliveUntil: null };
  }

  private async write(pod: PodConfig, what: 'set' | 'clear', work: () => Promise<void>): Promise<void> {
    try {
      await withinTimeout(work(), this.config.tuning.redisWriteTimeoutMs, `keep-alive ${what}`);
    } catch (error) {
      this.logger.warn({ pod: pod.name, err: errorMessage(error) }, `keep-alive ${what} failed`);
      throw problem(
        503,
        'keep-alive-unavailable',
        'Keep-alive store unavailable',
        'Redis did not take the keep-alive change; retry shortly',
        { name: pod.name },
      );
    }
  }
}
