// Internals shared by the Lua host (lua_host.cpp) and its charged library (lua_library.cpp): the
// host state and the few helpers both need. Not a public interface.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "hooks/lua_host.h"

struct lua_State;

namespace palace::hooks::detail {

struct NativeEntry {
  std::string name;
  NativeFunction fn;
};

struct KeptNativeEntry {
  std::string name;
  LuaHost::KeptFunction fn;
};

// What a function handle names: the function's registry reference, and the script's list of
// upvalues to put back after each call (see freeze in lua_host.cpp).
struct FunctionEntry {
  std::string script;
  std::string function;
  Handle value = NoHandle;
  Handle restore = NoHandle;
  int restore_count = 0;
};

// A record (LuaHost::record): its shadow holds the fields the proxy shows, keyed by kept names.
// A fill sets only the fields whose value changed since the last fill (`last`, when `valid`): the
// moves of one piece differ in a field or two.
struct RecordEntry {
  Handle shadow = NoHandle;
  std::vector<Handle> names;
  std::function<void(std::vector<Handle>&)> lazy;
  std::vector<Slot> last;
  bool valid = false;
  int lazy_field = -1;       // the lazy field's index in names
  bool lazy_cached = false;  // the lazy field holds this call's answer: the next fill clears it
};

struct ScriptEntry {
  Handle restore = NoHandle;  // the upvalues of the script's functions as its top level left them
  int restore_count = 0;
};

struct LuaHostState {
  enum class Failure { none, budget, memory, interrupted, deadline };

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
  // The wall clock is read first by the count hook, not when a call starts: most calls end
  // before the hook first fires, and pay nothing for the deadline.
  bool clock_started = false;
  std::chrono::steady_clock::time_point deadline;

  std::function<bool()> interrupt;  // asked by the count hook; see LuaHost::set_interrupt

  std::map<std::string, std::unique_ptr<NativeEntry>> natives;
  std::map<std::string, std::unique_ptr<KeptNativeEntry>> kept_natives;
  std::map<std::string, ScriptEntry> scripts;
  // Indexed by handle; null for handles of another sort.
  std::vector<std::unique_ptr<FunctionEntry>> functions;
  std::vector<std::unique_ptr<RecordEntry>> records;
  std::vector<Handle> lazy_values;  // what a record's lazy field answered, until Lua has it
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

// Pushes the shadow of the table at `idx` and returns true when it is frozen (read-only to
// scripts: its contents live in the shadow); pushes nothing and returns false otherwise. Never raises.
bool push_shadow(lua_State* L, int idx);

}  // namespace palace::hooks::detail
