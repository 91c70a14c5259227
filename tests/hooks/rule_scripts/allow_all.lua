-- A hook that allows every move: what a runtime hook costs, the rule aside.
function allow(move) return true end
