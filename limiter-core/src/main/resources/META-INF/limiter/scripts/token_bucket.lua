-- TOKEN_BUCKET (4): a bucket of max tokens (or of its burst, l.burst, when it has one) refilled at
-- max per window; bursts up to what it holds, then a smooth rate. A hash per key: the tokens in use u, in tokens x window (so that refill, max tokens
-- per window milliseconds, is max per millisecond: integers only), the time t of the last call and
-- the window l they were counted in. Keeping the tokens in use (not the tokens left) lets a limit
-- changed while running read the key as it is: a lower max refuses a key already past it, a higher
-- one lets it go on. "count" is the tokens in use. The key lives only until the bucket would be full
-- again.
ALGORITHMS[4] = {
  check = function(l)
    read_clock()
    local w = l.window
    local capacity = (l.burst or l.max) * w
    local used = 0
    local h = redis.call('HMGET', l.state_key, 'u', 't', 'l')
    if h[1] then
      local stored = tonumber(h[1])
      if tonumber(h[3]) ~= w then
        -- the window changed while running: the same tokens, in the new unit
        stored = math.floor(stored / tonumber(h[3]) * w)
      end
      -- no longer than a full refill takes: w for a bucket of max, more for a burst
      local elapsed = math.min(math.max(NOW_MS - tonumber(h[2]), 0), ceil_div(capacity, l.max))
      used = math.max(stored - elapsed * l.max, 0)
    end
    local level = capacity - used
    local need = l.cost * w
    local s = { used = used, count = ceil_div(used, w), reset = ceil_div(used, l.max), retry = 0 }
    s.fits = level >= need
    if not s.fits then
      s.retry = math.max(ceil_div(need - level, l.max), 1)
    end
    return s
  end,
  commit = function(l, s)
    local w = l.window
    local used = s.used + l.cost * w
    local refill = ceil_div(used, l.max)
    redis.call('HSET', l.state_key, 'u', used, 't', NOW_MS, 'l', w)
    redis.call('PEXPIRE', l.state_key, refill)
    return ceil_div(used, w), refill, w
  end
}
