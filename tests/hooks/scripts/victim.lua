function rep()
  return string.rep("ab", 2) .. ("ab"):rep(2)
end

function has_echo()
  return palace.echo ~= nil and math ~= nil
end
