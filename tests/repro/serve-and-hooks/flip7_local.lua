-- A stateful add_moves hook: every second call it offers the capture of the enemy king, so the
-- attack test and the move generator disagree about the same position.
local n = 0  -- an upvalue: state no globals rule can take away
local files = "abcdefgh"
function add(piece, at)
  n = n + 1
  if n % 7 == 0 then
    for f = 1, 8 do
      for r = 1, 8 do
        local sq = files:sub(f, f) .. r
        local p = palace.piece_at(sq)
        if p and p.royal and p.side ~= piece.side then return {{to = sq, only = "capture"}} end
      end
    end
  end
  return nil
end
