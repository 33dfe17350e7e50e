import { Inject, Injectable } from '@nestjs/common';
import type { PodConfig, PodwardenConfig } from '@podwarden/policies';
import {
  ActionLog,
  BillableIntents,
  CONFIG,
  LOGGER,
  WakeHistory,
  errorMessage,
  withinTimeout,
  type AppLogger,
  type BillableIntent,
} from '@podwarden/platform';
import { problem } from '../http/problem';
import { actionView } from './action-view';
import type { HistoryDto, InDoubtDto } from './history.dto';

/** GET …/history: the two durable records side by side, newest first. */
@Injectable()
export class HistoryService {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly actions: ActionLog,
    private readonly wakes: WakeHistory,
    private readonly intents: BillableIntents,
  ) {}

  async read(pod: PodConfig, limit: number): Promise<HistoryDto> {
    try {
      const [actions, wakes, open] = await withinTimeout(
        Promise.all([
          this.actions.recent(pod.name, limit),
          this.wakes.recent(pod.name, limit),
          this.intents.open(pod.name),
        ]),
        this.config.tuning.redisReadTimeoutMs,
        'history read',
      );
      return { name: pod.name, actions: actions.map(actionView), wakes, inDoubt: open.map(inDoubtView) };
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

function inDoubtView(intent: BillableIntent): InDoubtDto {
  const { at, action, podId, gpuId, pricePerHour, requestName, attemptId, fenceToken, answeredStatus } =
    intent;
  const detail =
    action === 'Create'
      ? 'may have placed a pod: the next wake re-reads the volume before any create'
      : `the ${action} may have taken effect: the next wake reconciles it`;
  return {
    at,
    action,
    podId,
    gpuId,
    pricePerHour,
    requestName,
    attemptId,
    fenceToken,
    answeredStatus,
    detail,
  };
}
