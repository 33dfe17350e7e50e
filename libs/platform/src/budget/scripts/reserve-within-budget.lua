-- A wake's reservation is taken only if the day's judged spend, what open runs may still bill and this
-- reservation fit the budget, all read and written in one step. Keeps this attempt's own reservation (a
-- re-delivered wake); settles an older one of the pod at price x time. Prefixed by price-times-time.lua.
-- KEYS: reservations, spent, provider spend. ARGV: pod, micros, budget micros (-1: none), reservation
-- JSON, now, TTL, attempt. {1 reserved | 0 refused, spent, reserved, accruing, provider (-1: none)}.
local kept = nil
local now = tonumber(ARGV[5])
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  local r = cjson.decode(old)
  if ARGV[7] ~= '' and r.attemptId == ARGV[7] then
    kept = r.micros
  else
    local used = price_times_time_micros(r.pricePerHour, r.at, now)
    if used > r.micros then used = r.micros end
    if used > 0 then redis.call('INCRBY', KEYS[2], used) end
    redis.call('HDEL', KEYS[1], ARGV[1])
  end
end
local spent = tonumber(redis.call('GET', KEYS[2]) or '0')
local provider = tonumber(redis.call('GET', KEYS[3]) or '-1')
local reserved = 0
local accruing = 0
for _, v in ipairs(redis.call('HVALS', KEYS[1])) do
  local r = cjson.decode(v)
  reserved = reserved + r.micros
  local a = price_times_time_micros(r.pricePerHour, r.at, now)
  if a > r.micros then a = r.micros end
  accruing = accruing + a
end
if kept then return {1, spent, reserved - kept, accruing, provider} end
local judged = spent + accruing
if provider > judged then judged = provider end
local budget = tonumber(ARGV[3])
if budget >= 0 and judged + (reserved - accruing) + tonumber(ARGV[2]) > budget then
  return {0, spent, reserved, accruing, provider}
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
redis.call('INCRBY', KEYS[2], 0)
redis.call('EXPIRE', KEYS[2], ARGV[6])
return {1, spent, reserved, accruing, provider}
