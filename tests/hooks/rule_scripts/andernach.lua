-- Andernach chess: a piece other than the king that captures changes colour where it stands (a
-- pawn that promotes as it captures, as the piece it became).
function capture_changes_colour(move)
  if not move.captured then return nil end
  local now = palace.piece_at(move.to)
  local other = move.piece.side == "white" and "black" or "white"
  return {{at = move.to, piece = {name = now.name, side = other}}}
end
