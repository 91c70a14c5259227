-- Reports what the sandbox lets a script see.
function global_type(name)
  return type(_ENV[name])
end

function field_type(library, name)
  return type(_ENV[library][name])
end

function string_metatable()
  return getmetatable("")
end

function finalizer()
  return setmetatable({}, {__gc = function() end})
end

function string_methods_table()
  return getmetatable("").__index
end
