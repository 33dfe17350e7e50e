import { redisScript } from '../../redis/redis-script';
import endRequestLua from './end-request.lua';
import leaseRequestsLua from './lease-requests.lua';
import readActivityEachLua from './read-activity-each.lua';

/** Keys: in flight. Args: now, lease ms, 'XX' (renew only) or '', request ids. */
export const leaseRequests = redisScript<number>({
  name: 'lease-requests',
  numberOfKeys: 1,
  lua: leaseRequestsLua,
});

/** Keys: in flight, last ended. Args: now, request id. */
export const endRequest = redisScript<number>({ name: 'end-request', numberOfKeys: 2, lua: endRequestLua });

/** Keys: per pod, in flight and last ended. Args: now. Per pod: [count, last ended or null, judged at]. */
export const readActivityEach = redisScript<[number, string | null, string][]>({
  name: 'read-activity-each',
  numberOfKeys: 'each',
  lua: readActivityEachLua,
});
