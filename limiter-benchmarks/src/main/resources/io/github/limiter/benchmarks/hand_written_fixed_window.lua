-- A fixed window as a user would write it by hand: the floor the benchmarks compare every row
-- with. One counter per key; its window starts with the first call and is the counter's TTL.
-- Every call is counted, refused ones too; the caller compares the count with its max.
--
-- KEYS[1]  the counter
-- ARGV[1]  the window, in ms
--
-- Reply: two integers:
--   count  the count after this call
--   pttl   ms until the window ends

local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return { count, redis.call('PTTL', KEYS[1]) }
