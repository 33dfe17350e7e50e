import { Inject, Injectable } from '@nestjs/common';
import { podRuns, type PodConfig, type PodwardenConfig } from '@podwarden/policies';
import { BilledRuns } from './billed-runs';
import {
  ActionLog,
  BillableIntents,
  CONFIG,
  LOGGER,
  ReadyLog,
  WakeHistory,
  orWarn,
  type AppLogger,
  type BillableIntent,
  boundedRead,
} from '@podwarden/platform';
import { storeUnavailable } from '../http/problem';
import { actionView } from './action-view';
import type { HistoryDto, InDoubtDto } from './history.dto';

/**
 * Records read to assemble `limit` runs: a run takes at least two actions, and keep-alives,
 * refusals and repeated stops sit between them. A run whose start falls outside shows its start unknown.
 */
function runWindow(limit: number): number {
  return Math.min(limit * 4 + 8, 1_000);
}

/** GET …/history: the durable records side by side, newest first, and the runs assembled from them. */
@Injectable()
export class HistoryService {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly actions: ActionLog,
    private readonly wakes: WakeHistory,
    private readonly intents: BillableIntents,
    private readonly readyLog: ReadyLog,
    private readonly billed: BilledRuns,
  ) {}

  read(pod: PodConfig, limit: number): Promise<HistoryDto> {
    return orWarn(
      async () => {
        const window = runWindow(limit);
        const [actions, wakes, open, ready] = await boundedRead(
          this.config,
          Promise.all([
            this.actions.recent(pod.name, window),
            this.wakes.recent(pod.name, window),
            this.intents.open(pod.name),
            this.readyLog.recent(pod.name, window),
          ]),
          'history read',
        );
        return {
          name: pod.name,
          actions: actions.slice(0, limit).map(actionView),
          wakes: wakes.slice(0, limit),
          inDoubt: open.map(inDoubtView),
          runs: await this.billed.annotate(pod, podRuns({ actions, wakes, ready }, Date.now(), limit)),
        };
      },
      {
        logger: this.logger,
        fields: { pod: pod.name },
        message: 'history unreadable',
        fallback: storeUnavailable(
          pod.name,
          'history-unreadable',
          'History unreadable',
          'the history store (Redis) could not be read',
        ),
      },
    );
  }
}

function inDoubtView(intent: BillableIntent): InDoubtDto {
  const { at, action, podId, gpuId, pricePerHour, requestName, attemptId, fenceToken, answeredStatus } =
    intent;
  const detail = inDoubtDetail(action);
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

function inDoubtDetail(action: BillableIntent['action']): string {
  if (action === 'Create')
    return 'may have placed a pod: the next wake re-reads the volume before any create';
  // A stop's intent is open while its call is out; the idle monitor records it if its caller died.
  if (action === 'Stop')
    return 'the Stop may have taken effect: an idle tick records it once past the client timeout';
  return `the ${action} may have taken effect: the next wake reconciles it`;
}
