-- SLIDING_LOG (2): a sorted set of call times (microseconds) per key: never more than max calls in
-- any window of the given length. Memory grows with max: one member per call in the window.
ALGORITHMS[2] = {
  check = function(l)
    read_clock()
    local window_us = l.window * 1000
    redis.call('ZREMRANGEBYSCORE', l.state_key, '-inf', NOW_US - window_us)
    local count = redis.call('ZCARD', l.state_key)
    local s = { count = count, retry = 0 }
    if count == 0 then
      s.reset = 0
    else
      -- read when asked for: a call that is counted reports its own reset (the window), and
      -- never asks, so the commonest call does not read its newest entry
      setmetatable(s, { __index = function(t, field)
        if field ~= 'reset' then
          return nil
        end
        local newest = redis.call('ZRANGE', l.state_key, -1, -1, 'WITHSCORES')
        local reset = ceil_div(tonumber(newest[2]) + window_us - NOW_US, 1000)
        rawset(t, 'reset', reset)
        return reset
      end })
    end
    s.fits = count + l.cost <= l.max
    if not s.fits then
      -- the call fits once this entry (0-based, oldest first) has left the window
      local leaving = count + l.cost - l.max - 1
      local entry = redis.call('ZRANGE', l.state_key, leaving, leaving, 'WITHSCORES')
      s.retry = math.max(ceil_div(tonumber(entry[2]) + window_us - NOW_US, 1000), 1)
    end
    return s
  end,
  commit = function(l, s)
    -- members are unique even for calls in the same microsecond: ZADD NX adds nothing (0) where
    -- the member exists, and the next number is tried
    local base = string.format('%.0f', NOW_US)
    local n = 0
    for _ = 1, l.cost do
      repeat
        n = n + 1
      until redis.call('ZADD', l.state_key, 'NX', base, base .. '-' .. n) == 1
    end
    redis.call('PEXPIRE', l.state_key, l.window)
    return s.count + l.cost, l.window, l.window
  end
}
