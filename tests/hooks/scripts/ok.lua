-- A well-behaved script: used to check that the host still works after a failure.
function answer()
  return 42
end
