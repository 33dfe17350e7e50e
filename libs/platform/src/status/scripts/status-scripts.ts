import { redisScript } from '../../redis/redis-script';
import writeSnapshotIfCurrentLua from './write-snapshot-if-current.lua';

/** Keys: snapshot hash. Args: generation, observed at, snapshot JSON. 1 written, 0 refused. */
export const writeSnapshotIfCurrent = redisScript<number>({
  name: 'write-snapshot-if-current',
  numberOfKeys: 1,
  lua: writeSnapshotIfCurrentLua,
});
