-- A load-time hook (scripts/README.md): asked once per pair of kinds when the variant loads, its
-- answers kept in the capture table, so move generation never calls Lua.
function may_capture(attacker, victim)
  return victim.value <= attacker.value
end
