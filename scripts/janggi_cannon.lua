-- The Janggi cannon's screen rules. Both answers depend only on the kinds involved, so the
-- interpreter asks them once per pair of kinds when the variant loads and keeps the answers in
-- its move tables: perft pays nothing for them.
--
-- The other cannon rules are the hop itself (exactly one screen, declared as `hop: all` in
-- rules/janggi/pieces.yaml) and the palace diagonals, which exist only as lines of the board, so
-- a cannon crosses a palace diagonally only from a corner over an occupied centre.

local function is_cannon(piece)
  return piece.name == "cannon"
end

-- A cannon may not jump over another cannon, of either side.
function may_jump(cannon, screen)
  return not is_cannon(screen)
end

-- Nor may it capture one.
function may_capture(cannon, victim)
  return not is_cannon(victim)
end
