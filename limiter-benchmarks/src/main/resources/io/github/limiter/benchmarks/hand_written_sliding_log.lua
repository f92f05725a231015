-- A sliding log as a user would write it by hand: a sorted set of call times per key, never more
-- than max calls in any window. Time from Redis. A refused call is not added.
--
-- KEYS[1]  the log
-- ARGV[1]  the window, in ms
-- ARGV[2]  max
--
-- Reply: two integers: 1 if allowed, else 0; the calls in the window after this one

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]) * 1000)
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[2]) then
  return { 0, count }
end
redis.call('ZADD', KEYS[1], now, string.format('%.0f-%d', now, count))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return { 1, count + 1 }
