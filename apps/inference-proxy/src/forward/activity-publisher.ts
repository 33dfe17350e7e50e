import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { LOGGER, ProxyActivityStore, UsageStore, errorMessage, type AppLogger } from '@podwarden/platform';

/**
 * Publishes each forwarded request's start and end through Redis for the idle monitor, so a request in
 * flight reads Busy however long it runs (its lease is renewed). A failed write is logged and the request
 * goes on: the scrape and the lease are the fallback, never a refused request.
 */
@Injectable()
export class ActivityPublisher implements OnModuleDestroy {
  private readonly open = new Map<string, Set<string>>();
  private readonly renewal: NodeJS.Timeout;

  constructor(
    private readonly store: ProxyActivityStore,
    private readonly usage: UsageStore,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {
    this.renewal = setInterval(() => void this.renewAll(), store.renewEveryMs);
    this.renewal.unref();
  }

  async begin(podName: string, requestId: string): Promise<void> {
    const key = podName.toLowerCase();
    const ids = this.open.get(key) ?? new Set<string>();
    ids.add(requestId);
    this.open.set(key, ids);
    await this.store.begin(key, requestId).catch((error: unknown) => this.warn('begin', key, error));
  }

  /** `arrivedAt`: when the request reached the proxy, so a cold start's wait is part of the use. */
  async end(podName: string, requestId: string, arrivedAt: number): Promise<void> {
    const key = podName.toLowerCase();
    const ids = this.open.get(key);
    ids?.delete(requestId);
    if (ids?.size === 0) this.open.delete(key);
    await this.store.end(key, requestId).catch((error: unknown) => this.warn('end', key, error));
    await this.usage
      .recordUse(key, { start: arrivedAt, end: Date.now() })
      .catch((error: unknown) => this.warn('usage record', key, error));
  }

  onModuleDestroy(): void {
    clearInterval(this.renewal);
  }

  private async renewAll(): Promise<void> {
    for (const [pod, ids] of this.open) {
      await this.store.renew(pod, [...ids]).catch((error: unknown) => this.warn('renew', pod, error));
    }
  }

  private warn(what: string, pod: string, error: unknown): void {
    this.logger.warn({ pod, err: errorMessage(error) }, `proxy activity ${what} not written`);
  }
}
