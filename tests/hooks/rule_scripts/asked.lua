-- Hooks that show when they are asked (tests/hooks/when_hooks_are_asked_test.cpp): each answers by
-- a rule of the fields it is given, and prints, to standard error, what only some moves carry.

-- A bishop may not move to f1: so it does not attack f1 either.
function bishop(move) return move.to ~= "f1" end

-- A rook may not take a royal piece: so it gives no check.
function rook(move) return not (move.captured and move.captured.royal) end

function pawn(move)
  if move.promotion then print("promotion", move.from, move.to, move.promotion.name) end
  if move.victim then print("en passant", move.from, move.to, move.victim, move.captured.name) end
  return true
end

function king(move)
  if move.partner then
    print("castling", move.from, move.to, move.partner.from, move.partner.to, move.partner.kind.name)
  end
  return true
end

-- A knight in hand may not be dropped on the fourth rank.
function knight(move)
  if move.drop then
    print("drop", tostring(move.from), move.to, move.piece.name, move.piece.side)
    return move.to:sub(2, 2) ~= "4"
  end
  return true
end
