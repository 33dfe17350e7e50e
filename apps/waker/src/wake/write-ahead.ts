import { randomUUID } from 'node:crypto';
import type { BillableIntent } from '@podwarden/platform';
import type { WakeDependencies } from './wake-dependencies';

/** What a step says about the call it is about to make; the write-ahead log adds who, when and under which token. */
export type IntentDraft = Pick<BillableIntent, 'action' | 'podId' | 'gpuId' | 'pricePerHour' | 'requestName'>;

/**
 * One run's side of the write-ahead billable log: the intent of every billable
 * call is written before the call, and closed by its outcome, or left open
 * (in doubt) when the answer may hide a placed pod.
 */
export class WriteAhead {
  constructor(
    private readonly deps: Pick<WakeDependencies, 'intents' | 'now'>,
    private readonly podName: string,
    private readonly attemptId: string,
    private readonly fenceToken: number | null,
  ) {}

  async open(draft: IntentDraft): Promise<BillableIntent> {
    const intent: BillableIntent = {
      id: randomUUID(),
      at: this.deps.now().toISOString(),
      podName: this.podName,
      attemptId: this.attemptId,
      fenceToken: this.fenceToken,
      answeredStatus: null,
      ...draft,
    };
    await this.deps.intents.begin(intent);
    return intent;
  }
}
