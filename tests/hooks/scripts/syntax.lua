function fine()
  return 1
end

function broken(
  return 2
end
