import { Inject, Injectable } from '@nestjs/common';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  LOGGER,
  ReadyLog,
  ReadyTimes,
  StatusPublisher,
  WakeHistory,
  type AppLogger,
} from '@podwarden/platform';
import type { TickStatusEffectsDependencies } from './tick-status-effects';

/** The tick's status effects' dependencies as Nest injects them; specs pass a plain object. */
@Injectable()
export class TickStatusEffectsWiring implements TickStatusEffectsDependencies {
  readonly timeoutMs: number;

  constructor(
    @Inject(StatusPublisher) readonly publisher: TickStatusEffectsDependencies['publisher'],
    @Inject(WakeHistory) readonly history: TickStatusEffectsDependencies['history'],
    @Inject(ReadyTimes) readonly readyTimes: TickStatusEffectsDependencies['readyTimes'],
    @Inject(ReadyLog) readonly readyLog: TickStatusEffectsDependencies['readyLog'],
    @Inject(LOGGER) readonly logger: AppLogger,
    @Inject(CONFIG) config: PodwardenConfig,
  ) {
    this.timeoutMs = config.tuning.redisWriteTimeoutMs;
  }
}
