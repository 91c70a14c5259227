function may_jump(a, b)
  return not (a.name == "cannon"
end
