// Lua run once in every fresh state, before any plugin code (library-plugins.md §9.3, §31.3).
//
// xpcall is rebuilt on pcall: a real xpcall runs its message handler before the stack unwinds,
// and when the error came from the instruction hook (a timeout) that handler would run with
// hooks switched off, free to loop forever. This one calls the handler after pcall returned,
// under the hook like any other code. Plugins cannot tell the difference: without the debug
// library a handler has nothing to inspect on the unwound stack.
export const SANDBOX_PRELUDE = String.raw`
local pcall, type, error = pcall, type, error

local function finish(handler, ok, ...)
  if ok then return true, ... end
  local handled, result = pcall(handler, (...))
  if handled then return false, result end
  return false, "error in error handling"
end

function xpcall(f, handler, ...)
  if type(handler) ~= "function" then
    error("bad argument #2 to 'xpcall' (function expected, got " .. type(handler) .. ")", 2)
  end
  return finish(handler, pcall(f, ...))
end

-- Lua 5.1 names that plugins written for the original host use.
unpack = table.unpack
math.pow = function(a, b) return a ^ b end
table.getn = function(t) return #t end
`;
