-- Fixed window: counts calls in a window that starts with the first call for the key.
--
-- KEYS[1]  the counter key
-- ARGV[1]  max: calls allowed per window (integer >= 1)
-- ARGV[2]  window in milliseconds (integer >= 1)
-- ARGV[3]  cost: permits this call takes (integer >= 1)
--
-- Returns {allowed, count, ttl}
--   allowed  1 if the call may proceed, 0 if it is rejected (a rejected call is not counted)
--   count    the window's count after this call
--   ttl      milliseconds left in the window
--
-- The counter is created with its expiry in one SET ... PX, and the script runs atomically, so
-- the key never exists without a TTL: no separate INCR and EXPIRE that a crash or an expiry in
-- between could split. Time is Redis's own (the key's TTL), never the caller's clock.

local key = KEYS[1]
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])

local current = redis.call('GET', key)
if not current then
  if cost > max then
    return {0, 0, 0}
  end
  redis.call('SET', key, cost, 'PX', window)
  return {1, cost, window}
end

local count = tonumber(current)
local ttl = redis.call('PTTL', key)
if ttl < 0 then
  -- A counter without expiry can only come from outside this script; give it one rather than
  -- blocking the key forever.
  redis.call('PEXPIRE', key, window)
  ttl = window
end
if count + cost > max then
  return {0, count, ttl}
end
count = redis.call('INCRBY', key, cost)
return {1, count, ttl}
