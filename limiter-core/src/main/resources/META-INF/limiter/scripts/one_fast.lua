-- The fast path's script for one call on its own: KEYS and ARGV as decide.lua's for one limit.
local reply = {}
fixed_window_fast(0, 0, reply)
return reply
