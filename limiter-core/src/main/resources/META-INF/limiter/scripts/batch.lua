-- The coalesced script: several calls decided in one run, in order, each exactly as the decision
-- script would decide it on its own, independently of the others (a call refused does not change
-- its neighbours' decisions; two calls on one key are counted one after the other). Redis's clock
-- is read once for the whole run.
--
-- KEYS     each call's keys, one call after the other
-- ARGV     each call's arguments, one after the other, each call in the layout of its shape: the
--          fast path's ('f' or 't' first, fixed_window_fast.lua), or decide.lua's (the mode first,
--          then n, then ten values per limit, nine for 'settle')
-- Reply    each call's reply, as its layout's script gives it, one after the other. A call that fails (a key of
--          another type, say) replies with the error's text (a string where the outcome's integer
--          would be), then zeros to its reply's length; its neighbours are decided all the same.
local reply, ko, ao = {}, 0, 0
local args = #ARGV
while ao < args do
  local shape = ARGV[ao + 1]
  local size = #reply
  local run, keys, used, replies
  if shape == 'f' then
    run, keys, used, replies = fixed_window_fast, 1, 4, 3
  elseif shape == 't' then
    run, keys, used, replies = fixed_window_fast, 1, 6, 3
  else
    local n = tonumber(ARGV[ao + 2])
    local values = (shape == 'settle') and 9 or 10
    run, keys, used, replies = decide, 3 * n, 2 + values * n, n * ((shape == 'peek' or shape == 'settle') and 3 or 6)
  end
  local ok, err = pcall(run, ko, ao, reply)
  if not ok then
    failed_call(reply, size, err, replies)
  end
  ko = ko + keys
  ao = ao + used
end
return reply
