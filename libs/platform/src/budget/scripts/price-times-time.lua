-- A run's cost so far: price per hour x time, in micro-dollars, never negative. The Lua twin of
-- uptimeMicros (libs/policies budget): rounds as Math.round does (half up, exactly, not floor(x + 0.5),
-- which rounds 0.49999999999999994 up); price-times-time.spec.ts holds the two equal.
local function price_times_time_micros(price_per_hour, from_ms, to_ms)
  local exact = price_per_hour * (to_ms - from_ms) * 1000000 / 3600000
  local micros = math.floor(exact)
  if exact - micros >= 0.5 then micros = micros + 1 end
  if micros < 0 then return 0 end
  return micros
end
