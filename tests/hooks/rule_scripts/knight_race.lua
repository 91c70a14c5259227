-- A game_end hook: a knight that reaches the far rank wins for its side. Anything else goes on.
local files = "abcdefgh"

local function at(file, rank) return palace.piece_at(files:sub(file, file) .. rank) end

function knight_home()
  for file = 1, 8 do
    local far = at(file, 8)
    if far and far.name == "knight" and far.side == "white" then return {winner = "white"} end
    local near = at(file, 1)
    if near and near.name == "knight" and near.side == "black" then return {winner = "black"} end
  end
  return nil
end

function answers_a_number() return 42 end

function names_no_side() return {winner = "green"} end
