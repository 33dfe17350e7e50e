import type Redis from 'ioredis';
import { INITIAL_IDLE_STATE, type BaselineBook, type ErrorClocks, type IdleState } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';
import { releaseEachIfHolder, renewIfHolder } from '../redis/holder-scripts';
import { MicroBatch } from '../concurrency/micro-batch';
import { readStored } from '../redis/stored-json';
import { idleRecordSchema } from './idle-record.schema';
import { acquireIdleLocks, saveIdleStatesIfHolder } from './scripts/idle-scripts';

/** Everything the idle monitor remembers about one configured pod, in Redis so no replica or restart forgets it. */
export interface IdleRecord {
  readonly state: IdleState;
  readonly baselines: BaselineBook;
  readonly updatedAt: number | null;
  /** The tick job that last advanced this record: a tick re-run after a stall must not count twice. */
  readonly lastTickId: string | null;
  /** When that tick was scheduled: a stalled older tick delivered late must not count again either. */
  readonly lastTickScheduledAt?: number | null;
  /** The pods last seen up (kept through an unreadable list): the runtime cap's targets on a blind tick. */
  readonly seenUp?: readonly string[];
  /** Per pod: since when it has been starting without a runtime (the never-ran guard's clocks). */
  readonly neverRanSince?: Readonly<Record<string, number>>;
  /** Per pod: since when it has been seen in ERROR, and when its ERROR stop was accepted (the ERROR guard's clocks). */
  readonly errorSince?: ErrorClocks;
}

export const EMPTY_IDLE_RECORD: IdleRecord = {
  state: INITIAL_IDLE_STATE,
  baselines: {},
  updatedAt: null,
  lastTickId: null,
};

/**
 * The pod's lock as its holder sees it: `save` writes only while this holder owns it (one Lua call), so a
 * lapsed holder cannot overwrite a newer one's state. `stillHeld` asks Redis before an action; `lost`
 * turns true once a renewal, check or save finds the lock gone.
 */
export interface HeldIdleLock {
  readonly lost: boolean;
  stillHeld(): Promise<boolean>;
  save(record: IdleRecord): Promise<boolean>;
}

const LOCK_POLL_MS = 50;

interface Holder {
  readonly key: string;
  readonly token: string;
}

/** A tick's pods lock, load, save and release together: each of those is one Redis command per batch. */
export class IdleStateStore {
  private readonly loads = new MicroBatch((keys: readonly string[]) => this.redis.mget(...keys));
  private readonly acquires = new MicroBatch((asks: readonly (Holder & { leaseMs: number })[]) =>
    acquireIdleLocks(
      this.redis,
      asks.map((ask) => ask.key),
      asks.flatMap((ask) => [ask.token, ask.leaseMs]),
    ),
  );
  private readonly saves = new MicroBatch((saves: readonly (Holder & { state: string; json: string })[]) =>
    saveIdleStatesIfHolder(
      this.redis,
      saves.flatMap((save) => [save.key, save.state]),
      saves.flatMap((save) => [save.token, save.json]),
    ),
  );
  private readonly releases = new MicroBatch((holders: readonly Holder[]) =>
    releaseEachIfHolder(
      this.redis,
      holders.map((holder) => holder.key),
      holders.map((holder) => holder.token),
    ),
  );

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /**
   * A pod never recorded, or a record that is not a JSON object, loads as the empty record (the tick
   * then saves a whole one); a field of the wrong type inside one reads as absent (idle-record.schema).
   */
  async load(podName: string): Promise<IdleRecord> {
    const raw = await this.loads.call(this.keys.idleState(podName));
    if (raw === null) return EMPTY_IDLE_RECORD;
    const read = readStored(idleRecordSchema, raw);
    return read.kind === 'read' ? read.value : EMPTY_IDLE_RECORD;
  }

  /** Unfenced: for a writer that holds the lock through `withLock` prefer the held lock's `save`. */
  async save(podName: string, record: IdleRecord): Promise<void> {
    await this.redis.set(this.keys.idleState(podName), JSON.stringify(record));
  }

  /**
   * Serialises every writer of one pod's idle state (ticks on any replica, a manual stop's Down edge);
   * `ran: false` when busy past waitMs. The lease is renewed while the work runs, so it can be short: a
   * holder that dies frees the pod within one lease.
   */
  async withLock<T>(
    podName: string,
    token: string,
    leaseMs: number,
    waitMs: number,
    work: (lock: HeldIdleLock) => Promise<T>,
  ): Promise<{ ran: true; value: T } | { ran: false }> {
    const key = this.keys.idleLock(podName);
    if (!(await this.acquire(key, token, leaseMs, waitMs))) return { ran: false };
    const held = {
      lost: false,
      stillHeld: async (): Promise<boolean> => {
        if ((await this.redis.get(key)) !== token) held.lost = true;
        return !held.lost;
      },
      save: (record: IdleRecord) => this.saveIfHolder(podName, token, record, held),
    };
    const renew = setInterval(
      () => {
        renewIfHolder(this.redis, [key], [token, leaseMs]).then(
          (renewed) => {
            if (renewed === 0) held.lost = true;
          },
          // A failed renewal proves nothing either way; the fenced save decides.
          () => undefined,
        );
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    try {
      return { ran: true, value: await work(held) };
    } finally {
      clearInterval(renew);
      await this.releases.call({ key, token }).catch(() => undefined);
    }
  }

  private async acquire(key: string, token: string, leaseMs: number, waitMs: number): Promise<boolean> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      if ((await this.acquires.call({ key, token, leaseMs })) === 1) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  }

  private async saveIfHolder(
    podName: string,
    token: string,
    record: IdleRecord,
    held: { lost: boolean },
  ): Promise<boolean> {
    const [key, state] = [this.keys.idleLock(podName), this.keys.idleState(podName)];
    const saved = (await this.saves.call({ key, token, state, json: JSON.stringify(record) })) === 1;
    if (!saved) held.lost = true;
    return saved;
  }
}
