import { uptimeMicros } from '@podwarden/policies';
import { useScriptSpecRedis } from '../../redis/testing/script-spec-redis';
import { PRICE_TIMES_TIME_LUA } from './budget-scripts';

// [price per hour, from ms, to ms]: whole results, exact halves (round up), just under a half, negative
// time (never below zero), large prices and long runs.
const INPUTS: readonly (readonly [number, number, number])[] = [
  [3.6, 0, 1000],
  [1.8, 0, 1],
  [1.8, 0, 3],
  [5.4, 0, 1],
  [0.03, 0, 60],
  [0.06, 0, 30],
  [0.12, 0, 15],
  [0.0001, 0, 1],
  [2.49, 1_700_000_000_000, 1_700_000_003_601],
  [0.79, 1_700_000_000_000, 1_700_086_400_000],
  [3.6, 1000, 0],
  [1.8, 1, 0],
  [0, 0, 3_600_000],
  [12.99, 0, 7 * 86_400_000],
  [0.44, 0, 1234567],
];

describe('price-times-time.lua', () => {
  const spec = useScriptSpecRedis('price-times-time');

  it.each(INPUTS)('%p $/h from %p to %p ms: the Lua result equals uptimeMicros', async (price, from, to) => {
    const lua = `${PRICE_TIMES_TIME_LUA}\nreturn price_times_time_micros(tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))`;
    const answer = await spec.redis().eval(lua, 0, String(price), String(from), String(to));
    expect(answer).toBe(uptimeMicros(price, from, to));
  });

  it('the table reaches the edge where floor(x + 0.5) would round up and Math.round does not', () => {
    const exact = (0.03 * 60 * 1_000_000) / 3_600_000;
    expect(Math.floor(exact + 0.5)).toBe(1);
    expect(uptimeMicros(0.03, 0, 60)).toBe(0);
  });
});
