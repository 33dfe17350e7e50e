import { Module, type DynamicModule } from '@nestjs/common';
import { BullBoardModule } from '@bull-board/nestjs';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { IDLE_TICK_QUEUE, WAKE_QUEUE, type AppStart } from '@podwarden/platform';
import { bullBoardAuth } from './bull-board-auth.middleware';
import { OfflineBoardAdapter, queueBoardHeaders } from './offline-board.adapter';

export const BULL_BOARD_PATH = '/admin/queues';

/**
 * Bull Board for the gateway's queues. It can retry, promote and delete wake
 * jobs, so its router sits behind the operator-token middleware. It is
 * served under its own CSP and makes no outside request (OfflineBoardAdapter).
 */
@Module({})
export class QueueBoardModule {
  static forRoot(start: AppStart): DynamicModule {
    return {
      module: QueueBoardModule,
      imports: [
        BullBoardModule.forRoot({
          route: BULL_BOARD_PATH,
          adapter: OfflineBoardAdapter,
          middleware: [queueBoardHeaders, bullBoardAuth(start.config, start.logger)],
        }),
        BullBoardModule.forFeature(
          { name: WAKE_QUEUE, adapter: BullMQAdapter },
          { name: IDLE_TICK_QUEUE, adapter: BullMQAdapter },
        ),
      ],
    };
  }
}
