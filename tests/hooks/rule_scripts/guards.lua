-- Moves beyond a piece's movement, on a chess board: a knight may also jump to any empty point
-- next to its own king (the example of scripts/README.md), and a pawn may also capture one point
-- straight ahead.
local files = "abcdefgh"
local function point(file, rank) return files:sub(file, file) .. rank end

function next_to_king(knight, at)
  for file = 1, 8 do
    for rank = 1, 8 do
      local p = palace.piece_at(point(file, rank))
      if p and p.royal and p.side == knight.side then
        local points = {}
        for f = math.max(file - 1, 1), math.min(file + 1, 8) do
          for r = math.max(rank - 1, 1), math.min(rank + 1, 8) do
            if not palace.piece_at(point(f, r)) then points[#points + 1] = {to = point(f, r), only = "move"} end
          end
        end
        return points
      end
    end
  end
end

function capture_ahead(pawn, at)
  local rank = tonumber(at:sub(2)) + (pawn.side == "white" and 1 or -1)
  if rank < 1 or rank > 8 then return {} end
  local ahead = at:sub(1, 1) .. rank
  local there = palace.piece_at(ahead)
  if there and there.side == pawn.side then return {} end
  return {{to = ahead, only = "capture"}}
end
