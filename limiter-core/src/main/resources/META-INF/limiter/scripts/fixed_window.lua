-- FIXED_WINDOW (1): a counter (string) per key; its window starts with the first counted call and
-- is the counter's TTL. Admits up to 2 x max calls across the edge of two windows. 1 key, ~50 bytes.
ALGORITHMS[1] = {
  check = function(l)
    local current = redis.call('GET', l.state_key)
    local s = { current = current, count = 0, reset = 0 }
    if current then
      s.count = tonumber(current)
      s.reset = ttl_of(l.state_key, l.window)
    end
    s.fits = s.count + l.cost <= l.max
    s.retry = s.reset
    return s
  end,
  commit = function(l, s)
    if s.current then
      return redis.call('INCRBY', l.state_key, l.cost), s.reset, s.reset
    end
    redis.call('SET', l.state_key, l.cost, 'PX', l.window)
    return l.cost, l.window, l.window
  end
}
