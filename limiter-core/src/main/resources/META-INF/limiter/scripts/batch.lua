-- The coalesced script: several calls decided in one run, in order, each exactly as the decision
-- script would decide it on its own, independently of the others (a call refused does not change
-- its neighbours' decisions; two calls on one key are counted one after the other).
--
-- KEYS     each call's keys, as decide.lua's, one call after the other
-- ARGV     each call's arguments, as decide.lua's (mode, n, seven values per limit), one after the
--          other; each call's n says where the next call starts
-- Reply    each call's reply, as decide.lua's, one after the other. A call that fails (a key of
--          another type, say) replies with the error's text (a string where the outcome's integer
--          would be), then zeros to its reply's length; its neighbours are decided all the same.
local reply, ko, ao = {}, 0, 0
local args = #ARGV
while ao < args do
  local n = tonumber(ARGV[ao + 2])
  local size = #reply
  -- the shape the Java side sends to the fast path on its own (one enforced fixed-window limit,
  -- acquiring) takes it here too: the same decision, for less work
  local run = decide
  if n == 1 and ARGV[ao + 3] == '1' and ARGV[ao + 9] == '0' and ARGV[ao + 1] == 'acquire' then
    run = fixed_window_fast
  end
  local ok, err = pcall(run, ko, ao, reply)
  if not ok then
    for i = #reply, size + 1, -1 do
      reply[i] = nil
    end
    if type(err) == 'table' then
      err = err.err or err.message
    end
    reply[size + 1] = tostring(err)
    local per_limit = (ARGV[ao + 1] == 'peek') and 3 or 6
    for i = 2, n * per_limit do
      reply[size + i] = 0
    end
  end
  ko = ko + 3 * n
  ao = ao + 2 + 7 * n
end
return reply
