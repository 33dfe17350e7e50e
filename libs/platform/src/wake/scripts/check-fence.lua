-- A run still holds the fence only while the gate has its exact value (attempt and token) and no stop came
-- after its attempt's first token. Stopped is checked first: a re-delivered attempt holds the gate again,
-- yet an operator stopped it.
-- KEYS: gate, stop mark. ARGV: the run's gate value, its attempt's first token.
-- 1 held, 2 stopped, 0 lost.
local stopped = tonumber(redis.call('GET', KEYS[2]) or '0')
if stopped > tonumber(ARGV[2]) then return 2 end
if redis.call('GET', KEYS[1]) == ARGV[1] then return 1 end
return 0
