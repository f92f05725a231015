-- A token bucket as a user would write it by hand: tokens and the time of the last refill in one
-- hash per key, max tokens refilled per window. Time from Redis. A refused call takes no token.
--
-- KEYS[1]  the hash: tokens, ts
-- ARGV[1]  the window, in ms
-- ARGV[2]  max (the capacity, and the tokens refilled per window)
--
-- Reply: two integers: 1 if allowed, else 0; the whole tokens left

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local w, max = tonumber(ARGV[1]), tonumber(ARGV[2])
local h = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = max
if h[1] then
  tokens = math.min(max, tonumber(h[1]) + (now - tonumber(h[2])) * max / w)
end
if tokens < 1 then
  return { 0, 0 }
end
tokens = tokens - 1
redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((max - tokens) * w / max))
return { 1, math.floor(tokens) }
