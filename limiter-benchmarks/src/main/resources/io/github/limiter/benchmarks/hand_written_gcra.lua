-- GCRA as a user would write it by hand: the token bucket's decision from one number per key, the
-- theoretical arrival time (TAT) of the next call. Bursts of up to max, max per window on average.
-- Time from Redis. A refused call does not move the TAT.
--
-- KEYS[1]  the TAT, in ms
-- ARGV[1]  the window, in ms
-- ARGV[2]  max
--
-- Reply: two integers: 1 if allowed, else 0; ms until the bucket is full again (or the call fits)

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local w, max = tonumber(ARGV[1]), tonumber(ARGV[2])
local interval = w / max
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then
  tat = now
end
local new_tat = tat + interval
if new_tat - now > w then
  return { 0, math.ceil(new_tat - now - w) }
end
redis.call('SET', KEYS[1], string.format('%.3f', new_tat), 'PX', math.ceil(new_tat - now))
return { 1, math.ceil(new_tat - now) }
