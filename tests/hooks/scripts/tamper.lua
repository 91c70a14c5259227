-- Tries to change the libraries seen by other scripts.
string.rep = function() return "hacked" end
palace.echo = nil
math = nil

function rep()
  return string.rep("ab", 2) .. ("ab"):rep(2)
end
