-- add_moves and after_move hooks that answer what the rules cannot play, one way for each point
-- their piece stands on or moves to (a2: on a xiangqi board), each to end with a clear error.
local bad_targets = {
  a1 = true,
  b1 = {"z9"},
  c1 = {"c2"},
  d1 = {{to = "d3", only = "jump"}},
  e1 = {to = "e3"},
  f1 = {"f1"},
}

function targets(piece, at)
  -- On g8 only once the other side has moved: asked by the attack test of a move being tried.
  if at == "g8" and palace.side_to_move() == piece.side then return true end
  return bad_targets[at]
end

local bad_edits = {
  a3 = {{at = "z9"}},
  b3 = {{at = "b3", piece = {name = "dragon", side = "white"}}},
  c3 = {{at = "c3", piece = {name = "rook", side = "red"}}},
  d3 = {{at = "a1"}},
  e3 = {{at = "e5", piece = {name = "king", side = "white"}}},
  f3 = {at = "f3"},
  g3 = {{at = "g4"}, "g5"},
  h3 = {{at = "h4", piece = "rook"}},
}

function edits(move)
  if move.to == "a4" then return move.nothing.here end
  if move.to == "a5" then  -- one edit too many
    local many = {}
    for i = 1, 65 do many[i] = {at = "a5"} end
    return many
  end
  if move.to == "a6" then  -- a queen on every empty point of ranks 3 to 8: more moves than a list holds
    local queens = {}
    for f = 1, 8 do
      local file = ("abcdefgh"):sub(f, f)
      for rank = 3, 8 do
        if not palace.piece_at(file .. rank) then queens[#queens + 1] = {at = file .. rank, piece = {name = "queen", side = "white"}} end
      end
    end
    return queens
  end
  if move.to == "a2" then return {{at = "a2", piece = {name = "advisor", side = "red"}}} end  -- xiangqi: outside the palace
  return bad_edits[move.to]
end
