-- Moves beyond a piece's movement, for a chess board: a knight may also jump to any empty point
-- next to its own king, and a pawn may also capture one point straight ahead.
local files = "abcdefgh"

local function point(file, rank) return files:sub(file, file) .. rank end

local function king_of(side)
  for file = 1, 8 do
    for rank = 1, 8 do
      local piece = palace.piece_at(point(file, rank))
      if piece and piece.royal and piece.side == side then return file, rank end
    end
  end
end

function next_to_king(knight, at)
  local points = {}
  local king_file, king_rank = king_of(knight.side)
  if not king_file then return points end
  for file = king_file - 1, king_file + 1 do
    for rank = king_rank - 1, king_rank + 1 do
      if file >= 1 and file <= 8 and rank >= 1 and rank <= 8 and not palace.piece_at(point(file, rank)) then
        points[#points + 1] = {to = point(file, rank), only = "move"}
      end
    end
  end
  return points
end

function capture_ahead(pawn, at)
  local rank = tonumber(at:sub(2)) + (pawn.side == "white" and 1 or -1)
  if rank < 1 or rank > 8 then return {} end
  local ahead = at:sub(1, 1) .. rank
  local there = palace.piece_at(ahead)
  if there and there.side == pawn.side then return {} end
  return {{to = ahead, only = "capture"}}
end
