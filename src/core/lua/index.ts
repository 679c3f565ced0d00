// The Lua runtime shared by both plugin hosts (library-plugins.md §9, clip-behaviour.md §8.4).
// See docs/lua-runtime.md.
export { LuaVm, type CallOptions, type LoadOptions, type LockOptions, type LuaLogLevel, type LuaSession, type LuaVmOptions, type LuaVmState } from './vm.js';
export { LuaError, formatDuration, type LuaErrorDetails, type LuaErrorKind } from './errors.js';
export { LuaFunctionRef, LuaMultiple, hostFunction, luaBytes, luaText, multi, type HostFunction } from './values.js';
export { currentLuaCall, currentLuaChain, type LuaCallInfo } from './vm.js';
