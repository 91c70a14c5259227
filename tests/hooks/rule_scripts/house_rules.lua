-- A house rule as a runtime hook: soldiers may not step sideways while the opponent's general
-- stands on its palace centre, and no piece may capture over another one on its path.
function soldier_move(move)
  local sideways = move.from:sub(2) == move.to:sub(2)
  if not sideways then return true end
  local centre = move.piece.side == "cho" and "e2" or "e9"
  local there = palace.piece_at(centre)
  return not (there and there.name == "general")
end

-- The chariot may not capture a soldier (a handicap game).
function chariot_move(move)
  return not (move.captured and move.captured.name == "soldier")
end
