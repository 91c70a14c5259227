-- Calls into the host through palace.*.
function roundtrip(...)
  return palace.echo(...)
end

function summarize(t)
  local total = palace.sum(t.values)
  return {total = total, name = t.name, inner = t.nested.inner, flipped = not t.flag}
end

function read_native_table()
  local r = palace.make()
  return r.board[2] .. ":" .. r.meta.size
end

function throws()
  local r = palace.fail("bad square")
  return r
end

function throws_tail()
  return palace.fail("tail")
end

function bad_argument()
  return palace.echo(print)
end

function catches()
  local ok, err = pcall(palace.fail, "caught")
  return tostring(ok) .. " " .. err
end
