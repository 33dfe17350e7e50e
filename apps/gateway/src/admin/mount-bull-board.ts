import type { INestApplication } from '@nestjs/common';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { GateSettings } from '../auth/operator-gate';
import { bullBoardAuth } from './bull-board-auth.middleware';

export const BULL_BOARD_PATH = '/admin/queues';

/** Bull Board for the wake queue, mounted behind the operator-token middleware. */
export function mountBullBoard(app: INestApplication, queue: Queue, settings: GateSettings): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({ queues: [new BullMQAdapter(queue)], serverAdapter });
  app.use(BULL_BOARD_PATH, bullBoardAuth(settings), serverAdapter.getRouter());
}
