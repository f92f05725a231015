-- Records one alert or ban in a limit's list of recent events, newest first, bounded, with a TTL.
-- Run only for the rare calls that raise an alert or start a ban, never per request.
--
-- KEYS[1]  the limit's event list   <prefix>events:{<limit-id>}
-- ARGV[1]  the event, as written by RecentEvents
-- ARGV[2]  how many events to keep
-- ARGV[3]  how long the list lives after its latest event, in ms
--
-- Returns the list's length.

redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return redis.call('LLEN', KEYS[1])
