import type Redis from 'ioredis';
import type { RedisKeys } from '../redis/redis-keys';
import { MicroBatch } from '../concurrency/micro-batch';
import { hgetallEach } from '../redis/read-each-hash';
import { readStored } from '../redis/stored-json';
import type { ActionTrigger, BillableAction } from './action-record';
import { MARKER_TTL_SECONDS as INTENT_CLOSED_TTL_SECONDS } from './record-script';
import { billableIntentSchema } from './billable-intent.schema';

/**
 * A billable call about to go out, written durably first (the write-ahead billable log); its outcome
 * removes it. One still here is in doubt: the waker died during the call, or the answer was lost or
 * ambiguous (timeout, reset, 5xx) and may have placed a pod.
 */
export interface BillableIntent {
  readonly id: string;
  readonly at: string;
  readonly podName: string;
  readonly action: BillableAction;
  /** The pod acted on (start, terminate); null for a create. */
  readonly podId: string | null;
  readonly gpuId: string | null;
  readonly pricePerHour: number | null;
  /** A create's requested pod name: how a pod it placed is recognised in the list. */
  readonly requestName: string | null;
  readonly attemptId: string;
  readonly fenceToken: number | null;
  /** Set when the call was answered ambiguously; null while the call is (or was, when a waker died) in flight. */
  readonly answeredStatus: number | null;
  /** Who asked (a stop's trigger), so a reconciled row says the same as an answered one; absent on the waker's. */
  readonly trigger?: ActionTrigger;
}

/**
 * How a record accounts for its call's intent (ActionLog.record writes both
 * atomically): claim closes it, in-doubt keeps it open with the ambiguous answer.
 */
export type IntentClosing =
  | { readonly mode: 'claim'; readonly intent: BillableIntent }
  | { readonly mode: 'in-doubt'; readonly intent: BillableIntent; readonly answeredStatus: number };

/** The write-ahead log of billable calls per pod name: a Redis hash of intents without an outcome. */
export class BillableIntents {
  // Every configured pod's hash is read each tick: one command per batch, not one per pod.
  private readonly hashes = new MicroBatch((keys: readonly string[]) => hgetallEach(this.redis, keys));

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Throws when Redis does not take it: a call whose intent is not durable is not sent. */
  async begin(intent: BillableIntent): Promise<void> {
    await this.redis.hset(this.keys.billableIntents(intent.podName), intent.id, JSON.stringify(intent));
  }

  /**
   * Closed without a record of its own (a doubt dropped or covered by an
   * adoption row): marked closed like a claim, so a late record of it is refused.
   */
  async settle(podName: string, intentId: string): Promise<void> {
    await this.redis
      .multi()
      .hdel(this.keys.billableIntents(podName), intentId)
      .set(this.keys.intentClosed(intentId), '1', 'EX', INTENT_CLOSED_TTL_SECONDS)
      .exec();
  }

  /** Every open intent of the pod, oldest first; an entry that does not parse is skipped. */
  async open(podName: string): Promise<BillableIntent[]> {
    const raw = await this.hashes.call(this.keys.billableIntents(podName));
    const intents: BillableIntent[] = [];
    for (const value of Object.values(raw)) {
      // Written only by us as JSON; a torn entry (or one of another shape) cannot be reconciled, so it is
      // not shown as one.
      const intent = readStored(billableIntentSchema, value);
      if (intent.kind === 'read') intents.push(intent.value);
    }
    return intents.sort((a, b) => a.at.localeCompare(b.at));
  }
}
