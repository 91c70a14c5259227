-- keeps state in a global, a global table reached through _G, and asks for it back
n = 0
function count() n = n + 1; _G.m = (_G.m or 0) + 1; return {n, m} end
