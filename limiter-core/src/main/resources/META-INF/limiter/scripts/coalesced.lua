-- In a coalesced run, the reply of a call that failed alone (a key of another type, say): what it
-- appended to reply is taken back, then the error's text stands where its first integer would,
-- with zeros to its reply's length, so that its neighbours are decided all the same.
local function failed_call(reply, size, err, length)
  for i = #reply, size + 1, -1 do
    reply[i] = nil
  end
  if type(err) == 'table' then
    err = err.err or err.message
  end
  reply[size + 1] = tostring(err)
  for i = 2, length do
    reply[size + i] = 0
  end
end
