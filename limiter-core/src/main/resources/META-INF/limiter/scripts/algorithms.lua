-- What the general path (decide.lua) and every algorithm's file share.

-- ceil(a / b) for a >= 0, b > 0, exact on integers
local function ceil_div(a, b)
  return math.floor((a + b - 1) / b)
end

-- Each algorithm has two phases, so that several limits can be decided all or nothing:
--   check(l)     reads the limit's state and returns s with
--                  s.fits   whether l.cost more calls fit
--                  s.count  the count before this call
--                  s.reset  milliseconds until the current state is gone or the window ends
--                  s.retry  milliseconds until the call would fit (when it does not)
--   commit(l, s) counts the call (cost >= 1); returns count after it, reset, how long an
--                alert for this window lasts (so that it fires once per key and window), and,
--                for a window of the clock, the window's name, which its alert marker holds
--   banned(l, s) (optional) what a ban the call started does to the limit's state, beside the
--                ban key
--   settle(l)    (optional) adds l.delta to the count of the window a call was decided in, if it
--                still runs, never below 0 (decide.lua's 'settle'); returns 1 if it changed a count,
--                the window's count after it and the ms until it ends. An algorithm without it
--                cannot settle exactly, and the Java side refuses actualCost on it at start.
-- Every key is written with its expiry in the same script, never left without one.
local ALGORITHMS = {}
