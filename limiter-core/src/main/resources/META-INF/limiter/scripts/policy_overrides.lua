-- Sets or removes values of policy overrides, and keeps the hash that holds them expiring.
-- Run only when an operator changes a policy, never per request.
--
-- KEYS[1]  the overrides hash        <prefix>policy-overrides
-- ARGV[1]  how long the hash lives after its latest change, in ms
-- ARGV[2], ARGV[3], ...  field and value pairs: <policy>/<max|window|alert-at|ban-for>, a whole
--          number (windows and bans in ms); an empty value removes the field
--
-- Returns how many fields the hash holds.

for i = 2, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    redis.call('HDEL', KEYS[1], ARGV[i])
  else
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return redis.call('HLEN', KEYS[1])
