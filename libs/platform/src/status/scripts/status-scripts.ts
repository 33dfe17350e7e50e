import { redisScript } from '../../redis/redis-script';
import writeSnapshotsIfCurrentLua from './write-snapshots-if-current.lua';
import writeSnapshotIfCurrentLua from './write-snapshot-if-current.lua';

/** Keys: snapshot hash. Args: generation, observed at, snapshot JSON. 1 written, 0 refused. */
export const writeSnapshotIfCurrent = redisScript<number>({
  name: 'write-snapshot-if-current',
  numberOfKeys: 1,
  lua: writeSnapshotIfCurrentLua,
});

/** Keys: snapshot hashes. Args: per hash, generation, observed at, JSON. Per hash: 1 written, 0 refused. */
export const writeSnapshotsIfCurrent = redisScript<number[]>({
  name: 'write-snapshots-if-current',
  numberOfKeys: 'each',
  lua: writeSnapshotsIfCurrentLua,
});
