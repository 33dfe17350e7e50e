import { redisScript } from '../../redis/redis-script';
import writeSnapshotsIfCurrentLua from './write-snapshots-if-current.lua';

/** Keys: snapshot hashes. Args: per hash, generation, observed at, JSON. Per hash: 1 written, 0 refused. */
export const writeSnapshotsIfCurrent = redisScript<number[]>({
  name: 'write-snapshots-if-current',
  numberOfKeys: 'each',
  lua: writeSnapshotsIfCurrentLua,
});
