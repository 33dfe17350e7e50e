import { redisScript } from '../../redis/redis-script';
import priceTimesTimeLua from './price-times-time.lua';
import reserveWithinBudgetLua from './reserve-within-budget.lua';
import settleReservationOnceLua from './settle-reservation-once.lua';

/** The one Lua definition of price x time (`price_times_time_micros`), for every script that prices a run. */
export const PRICE_TIMES_TIME_LUA = priceTimesTimeLua;

/** Keys: reservations, spent, provider. Args: pod, micros, budget (-1: none), JSON, now, TTL, attempt. */
export const reserveWithinBudget = redisScript<[number, number, number, number, number]>({
  name: 'reserve-within-budget',
  numberOfKeys: 3,
  lua: `${priceTimesTimeLua}\n${reserveWithinBudgetLua}`,
});

/** Keys: reservations, today's spent. Args: pod, micros, TTL. 1 settled, 0 nothing open. */
export const settleReservationOnce = redisScript<number>({
  name: 'settle-reservation-once',
  numberOfKeys: 2,
  lua: settleReservationOnceLua,
});
