import { Inject, Injectable } from '@nestjs/common';
import type { PodConfig, PodwardenConfig } from '@podwarden/policies';
import {
  ActionLog,
  CONFIG,
  LOGGER,
  WakeHistory,
  errorMessage,
  withinTimeout,
  type AppLogger,
} from '@podwarden/platform';
import { problem } from '../http/problem';
import { actionView } from './action-view';
import type { HistoryDto } from './history.dto';

/** GET …/history: the two durable records side by side, newest first. */
@Injectable()
export class HistoryService {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly actions: ActionLog,
    private readonly wakes: WakeHistory,
  ) {}

  async read(pod: PodConfig, limit: number): Promise<HistoryDto> {
    try {
      const [actions, wakes] = await withinTimeout(
        Promise.all([this.actions.recent(pod.name, limit), this.wakes.recent(pod.name, limit)]),
        this.config.tuning.redisReadTimeoutMs,
        'history read',
      );
      return { name: pod.name, actions: actions.map(actionView), wakes };
    } catch (error) {
      this.logger.warn({ pod: pod.name, err: errorMessage(error) }, 'history unreadable');
      throw problem(
        503,
        'history-unreadable',
        'History unreadable',
        'the history store (Redis) could not be read',
        {
          name: pod.name,
        },
      );
    }
  }
}
