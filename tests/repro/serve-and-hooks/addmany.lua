-- add_moves naming one point 150,000 times (from uploads/addmany_upload.json)
function h(...)
  local r = {} for i = 1, 150000 do r[i] = "e5" end return r
end
