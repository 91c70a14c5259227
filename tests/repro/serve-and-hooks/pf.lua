-- print in a hook, 32 MB a call (from uploads/pf_upload.json)
local s = string.rep("y", 8000)
function h(move) for i = 1, 4000 do print(s) end return true end
