import { Module, type DynamicModule } from '@nestjs/common';
import { BullBoardModule } from '@bull-board/nestjs';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { IDLE_TICK_QUEUE, WAKE_QUEUE, type AppStart } from '@podwarden/platform';
import { bullBoardAuth } from './bull-board-auth.middleware';

export const BULL_BOARD_PATH = '/admin/queues';

/**
 * Bull Board for the gateway's queues. It can retry, promote and delete wake
 * jobs, so its router sits behind the operator-token middleware.
 */
@Module({})
export class QueueBoardModule {
  static forRoot(start: AppStart): DynamicModule {
    return {
      module: QueueBoardModule,
      imports: [
        BullBoardModule.forRoot({
          route: BULL_BOARD_PATH,
          adapter: ExpressAdapter,
          middleware: bullBoardAuth(start.config, start.logger),
        }),
        BullBoardModule.forFeature(
          { name: WAKE_QUEUE, adapter: BullMQAdapter },
          { name: IDLE_TICK_QUEUE, adapter: BullMQAdapter },
        ),
      ],
    };
  }
}
