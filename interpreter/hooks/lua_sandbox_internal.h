// Internals shared by the Lua host (lua_host.cpp) and its charged library (lua_library.cpp): the
// host state and the few helpers both need. Not a public interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "hooks/lua_host.h"

struct lua_State;

namespace palace::hooks::detail {

struct NativeEntry {
  std::string name;
  NativeFunction fn;
};

struct LuaHostState {
  enum class Failure { none, budget, memory, interrupted };

  explicit LuaHostState(Limits l) : limits(l) {}

  Limits limits;
  lua_State* L = nullptr;

  // --- allocator bookkeeping (touched from inside Lua allocations: plain data only) ---
  std::size_t used = 0;
  // Lua retries a refused request once after an emergency collection, so a refusal is only
  // "pending" until we see whether that retry succeeds.
  bool refusal_pending = false;
  const void* refused_ptr = nullptr;
  std::size_t refused_osize = 0;
  std::size_t refused_nsize = 0;
  bool memory_exceeded = false;
  bool string_too_long = false;  // the refusal was a string over kMaxStringBytes, not the cap
  // Where the script was when the first refusal happened (see `track_source`).
  const char* memory_source = nullptr;
  int memory_line = 0;

  // --- per-operation state ---
  bool running = false;
  bool armed = false;           // the count hook is installed (script code may run)
  std::uint64_t remaining = 0;  // instructions left in the budget
  int hook_count = 0;           // the count the hook was last armed with by on_count
  bool count_disturbed = false;  // the allocator re-armed the hook with a count of 1 since
  std::size_t churn = 0;         // bytes allocated since the hook last charged them
  // Near the memory cap the hook fires on every instruction and records the position here:
  // an allocation failure inside the VM unwinds without calling any message handler, so this
  // is the only way to name the line of a plain `t[#t+1] = ...` memory bomb. The pointers
  // are the `source` strings of chunks pinned in the registry, so they outlive the error.
  const char* track_source = nullptr;
  int track_line = 0;
  Failure failure = Failure::none;
  const char* failure_source = nullptr;
  int failure_line = 0;
  std::size_t printed = 0;        // bytes print wrote in this operation
  std::size_t printed_total = 0;  // bytes print wrote in the host's life
  std::string script;    // display name of the running script
  std::string function;  // function being called, for messages

  std::function<bool()> interrupt;  // asked by the count hook; see LuaHost::set_interrupt

  std::map<std::string, std::unique_ptr<NativeEntry>> natives;
  std::set<std::string> scripts;
  std::string native_error;  // message of the last failed native call (lives outside Lua frames)

  bool memory_failed() const { return memory_exceeded || refusal_pending; }

  void fail(Failure kind, const char* source, int line) {
    if (failure != Failure::none) return;
    failure = kind;
    failure_source = source;
    failure_line = line;
  }
};

// Allocation is charged to the instruction budget at one instruction per this many bytes.
constexpr std::size_t kBytesPerInstruction = 256;
// A library function scanning a string is charged one instruction per this many bytes: decoding
// UTF-8 runs at about 30 ns a byte, so a budget of scanning stays around half a second.
constexpr std::size_t kScannedBytesPerInstruction = 16;

// What print may write in one call (or top level) and in one interpreter's life (see base_print).
constexpr std::size_t kMaxPrintPerCall = 4096;
constexpr std::size_t kMaxPrintPerHost = 65536;

// Strings longer than this are refused. Comparing two strings is one instruction however long they
// are, so this bounds the time an instruction can take: a loop comparing two 8 KiB strings spends
// its whole budget in about half a second, while 4 MiB strings took half a minute.
constexpr std::size_t kMaxStringBytes = 8u << 10;

// The host state is the allocator's userdata, so every C function can reach it.
LuaHostState& state_of(lua_State* L);

// First Lua frame at or above `level`: C frames (string.rep, error, ...) have no line.
bool locate(lua_State* L, int level, const char** source, int* line);

// Stops the script once a limit is hit (the failure is recorded in the state first). Raises
// a Lua error, i.e. longjmps: call it only from a frame that holds no objects with destructors.
int raise_abort(lua_State* L, bool in_hook);

// Charges `cost` instructions of work a library function does in C, where the count hook cannot
// see it, and stops the script when that exhausts the budget. Only from a C function a script
// called, under the same rule as raise_abort; does nothing when no budget is armed.
void charge(lua_State* L, std::uint64_t cost);

// Puts the charged library functions (lua_library.cpp) in place of the stock ones in the global
// string, table and utf8 tables and the global table, before the sandbox template copies them.
void install_charged_library(lua_State* L);

// Pushes a shallow copy of the table on top of the stack (which stays there).
void push_table_copy(lua_State* L);

}  // namespace palace::hooks::detail
