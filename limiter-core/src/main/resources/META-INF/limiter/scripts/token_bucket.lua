-- TOKEN_BUCKET (4): a bucket of max tokens refilled at max per window; bursts up to max, then a
-- smooth rate. A hash per key: the level s in tokens x window (so that refill, max tokens per
-- window milliseconds, is max per millisecond: integers only) and the time t of the last call.
-- "count" is the tokens in use. The key lives only until the bucket would be full again.
ALGORITHMS[4] = {
  check = function(l)
    read_clock()
    local w = l.window
    local capacity = l.max * w
    local level = capacity
    local h = redis.call('HMGET', l.state_key, 's', 't')
    if h[1] then
      local elapsed = math.min(math.max(NOW_MS - tonumber(h[2]), 0), w)
      level = math.min(capacity, tonumber(h[1]) + elapsed * l.max)
    end
    local need = l.cost * w
    local s = { level = level, count = l.max - math.floor(level / w), reset = ceil_div(capacity - level, l.max),
                retry = 0 }
    s.fits = level >= need
    if not s.fits then
      s.retry = math.max(ceil_div(need - level, l.max), 1)
    end
    return s
  end,
  commit = function(l, s)
    local w = l.window
    local level = s.level - l.cost * w
    local refill = ceil_div(l.max * w - level, l.max)
    redis.call('HSET', l.state_key, 's', level, 't', NOW_MS)
    redis.call('PEXPIRE', l.state_key, refill)
    return l.max - math.floor(level / w), refill, w
  end
}
