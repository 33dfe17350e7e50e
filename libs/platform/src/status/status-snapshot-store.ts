import type Redis from 'ioredis';
import { releaseIfHolder } from '../redis/holder-scripts';
import type { RedisKeys } from '../redis/redis-keys';
import { MicroBatch } from '../concurrency/micro-batch';
import { readStored } from '../redis/stored-json';
import { hgetEach } from '../redis/read-each-hash';
import { writeSnapshotsIfCurrent } from './scripts/status-scripts';
import type { VolumeReading } from './volume-reading';
import { statusSnapshotSchema } from './status-snapshot.schema';

/** A volume as RunPod described it, and when (epoch ms, taken before the read began). */
export interface StatusSnapshot {
  readonly volume: VolumeReading;
  readonly observedAt: number;
}

/** The stored snapshot (null when none, or invalidated) and the generation a new one must be written at. */
export interface SnapshotReading {
  readonly snapshot: StatusSnapshot | null;
  readonly generation: number;
}

// One key per pod; the batched reads and writes touch many pods' keys in one script, which a Cluster
// allows because the whole namespace shares one hash tag (docs/redis.md).

/**
 * The shared status snapshot of each pod's volume in Redis: gateways answer GET from it, the one
 * reader holding the refresh lock rewrites it, the waker and the idle monitor rewrite it from what
 * they read anyway, and every podwarden write invalidates it.
 */
export class StatusSnapshotStore {
  // A tick's pods ask together: one command per batch, not one per pod.
  private readonly generations = new MicroBatch((keys: readonly string[]) =>
    hgetEach(this.redis, keys, 'gen'),
  );
  private readonly writes = new MicroBatch((asks: readonly { key: string; args: readonly string[] }[]) =>
    writeSnapshotsIfCurrent(
      this.redis,
      asks.map((ask) => ask.key),
      asks.flatMap((ask) => ask.args),
    ),
  );

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async read(podName: string): Promise<SnapshotReading> {
    const [gen, snap] = await this.redis.hmget(this.keys.statusSnapshot(podName), 'gen', 'snap');
    const generation = Number(gen ?? '0');
    return { snapshot: parseSnapshot(snap), generation: Number.isFinite(generation) ? generation : 0 };
  }

  /** The generation to write at after a read starting now (one HGET, for readers that need no snapshot). */
  async generation(podName: string): Promise<number> {
    return Number((await this.generations.call(this.keys.statusSnapshot(podName))) ?? '0');
  }

  /** True when written; false when a write (or a newer observation) came in between. */
  async write(podName: string, generation: number, snapshot: StatusSnapshot): Promise<boolean> {
    const args = [String(generation), String(snapshot.observedAt), JSON.stringify(snapshot)];
    return (await this.writes.call({ key: this.keys.statusSnapshot(podName), args })) === 1;
  }

  /** After a start, stop, create, terminate or keep-alive: the next read must come from RunPod. */
  async invalidate(podName: string): Promise<void> {
    const key = this.keys.statusSnapshot(podName);
    await this.redis.multi().hincrby(key, 'gen', 1).hdel(key, 'at', 'snap').exec();
    // A refresh that began before the write is now pointless: let the next reader start one.
    await this.redis.del(this.keys.statusRefreshLock(podName));
  }

  /** Single flight across replicas: true for the one reader that should refresh. */
  async tryLock(podName: string, token: string, leaseMs: number): Promise<boolean> {
    const set = await this.redis.set(this.keys.statusRefreshLock(podName), token, 'PX', leaseMs, 'NX');
    return set === 'OK';
  }

  async isLocked(podName: string): Promise<boolean> {
    return (await this.redis.exists(this.keys.statusRefreshLock(podName))) === 1;
  }

  async unlock(podName: string, token: string): Promise<void> {
    await releaseIfHolder(this.redis, [this.keys.statusRefreshLock(podName)], [token]);
  }
}

/** None when unreadable: the next read comes from RunPod, never from a snapshot we cannot read. */
function parseSnapshot(raw: string | null): StatusSnapshot | null {
  if (raw === null) return null;
  const read = readStored(statusSnapshotSchema, raw);
  return read.kind === 'read' ? read.value : null;
}
