-- Sets or removes values of policy overrides, and keeps the hash that holds them expiring.
-- Run only when an operator changes a policy, never per request.
--
-- KEYS[1]  the overrides hash        <prefix>policy-overrides
-- ARGV[1]  how long the hash lives after its latest change, in ms
-- ARGV[2], ARGV[3], ...  field and value pairs: <policy>/<max|window|alert-at|ban-for>, a whole
--          number (windows and bans in ms); an empty value removes the field
--
-- The hash also holds the field ~written: <created>:<changes>, when Redis made the hash (its
-- clock, in microseconds since 1970) and how many changes it has taken. A change never removes
-- it, so the hash never empties: an instance that read it and then finds it gone, made anew, or
-- with fewer changes knows that Redis lost it (a restart without persistence or from an older
-- snapshot, a flush, an eviction), not that another instance removed the overrides.
--
-- Returns the hash's ~written after this change.

local written = redis.call('HGET', KEYS[1], '~written')
local created, changes
if written then
  local separator = string.find(written, ':', 1, true)
  created = string.sub(written, 1, separator - 1)
  changes = tonumber(string.sub(written, separator + 1))
else
  local time = redis.call('TIME')
  created = time[1] .. string.format('%06d', tonumber(time[2]))
  changes = 0
end
for i = 2, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    redis.call('HDEL', KEYS[1], ARGV[i])
  else
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
written = created .. ':' .. string.format('%d', changes + 1)
redis.call('HSET', KEYS[1], '~written', written)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return written
