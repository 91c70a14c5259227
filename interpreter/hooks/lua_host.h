// Sandboxed Lua 5.4 host for rule hooks.
//
// Rule scripts are untrusted input: a variant file may ship a script that loops forever, eats
// memory or pokes at the host. Every script therefore runs in its own environment with only
// the pure libraries, under an instruction budget and a heap cap, and every failure reaches C++
// as a one-line HookError naming the script (and the line, when Lua can tell).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/error.h"

namespace palace::hooks {

struct Limits {
  // Per call (and for running a script's top level). Allocation is charged too, one
  // instruction per 256 bytes, since a single instruction can copy megabytes, and so is each
  // collection a full heap forces (see lua_host.cpp's allocator).
  std::uint64_t instructions = 1'000'000;
  std::size_t memory_bytes = 16u << 20;  // cap on the Lua state's total heap
  // Wall-clock time per call, for whatever the budget cannot see. Far above what the budget
  // allows (about half a second at worst), so that it never decides a call a slower build finishes.
  std::uint32_t deadline_ms = 3000;
};

// what() is always a single line, so callers can put it straight into a log or a UI.
class HookError : public Error {
  using Error::Error;
};

struct Value;
// Key/value pairs in insertion order. Tables coming back from Lua list the integer keys in
// ascending order, then floats, strings and booleans (each ascending): Lua's own traversal
// order depends on a per-process hash seed, and rules must be reproducible.
using Table = std::vector<std::pair<Value, Value>>;

struct Value {
  // The alternatives mirror Lua's types: std::int64_t is a Lua integer, double a Lua float.
  std::variant<std::monostate, bool, std::int64_t, double, std::string, std::shared_ptr<Table>> v;

  static Value nil();
  static Value boolean(bool b);
  static Value integer(std::int64_t i);
  static Value number(double d);
  static Value string(std::string s);
  static Value table(Table entries = {});

  bool is_nil() const;
  bool is_bool() const;
  bool is_integer() const;
  bool is_number() const;   // a float (double) only
  bool is_numeric() const;  // integer or float
  bool is_string() const;
  bool is_table() const;

  // Throw HookError when the value has another type. as_number() accepts integers too.
  bool as_bool() const;
  std::int64_t as_integer() const;
  double as_number() const;
  const std::string& as_string() const;
  const Table& as_table() const;
  Table& as_table();

  // Table lookup (last matching entry wins, as when the table is pushed into Lua);
  // nullptr when this is not a table or the key is absent.
  const Value* find(const Value& key) const;
  const Value* find(std::string_view key) const;

  const char* type_name() const;     // "nil", "boolean", "integer", "number", "string", "table"
  std::string debug_string() const;  // Lua-like rendering, for logs and test output

  // Deep, order-sensitive comparison; an integer never equals a float.
  friend bool operator==(const Value& a, const Value& b);
};

using NativeFunction = std::function<Value(const std::vector<Value>& args)>;  // may throw HookError

// A value a LuaHost keeps (LuaHost::keep, record, function_handle); NoHandle stands for nil.
using Handle = std::int32_t;
constexpr Handle NoHandle = 0;

// An argument of a fast call, or a field of a record: nil, a boolean, an integer or a kept value.
struct Slot {
  enum class Type : std::uint8_t { nil, boolean, integer, kept };
  Type type = Type::nil;
  std::int64_t value = 0;

  static constexpr Slot nil() { return {}; }
  static constexpr Slot boolean(bool b) { return {Type::boolean, b ? 1 : 0}; }
  static constexpr Slot integer(std::int64_t i) { return {Type::integer, i}; }
  static constexpr Slot kept(Handle h) { return h == NoHandle ? Slot{} : Slot{Type::kept, h}; }
  constexpr bool operator==(const Slot&) const = default;
};

namespace detail {
struct LuaHostState;
}

// One Lua state shared by all scripts of a game; not thread-safe. Native functions must not
// call back into the host (that throws HookError, which the calling script sees as an error).
class LuaHost {
 public:
  explicit LuaHost(Limits limits = {});
  ~LuaHost();
  LuaHost(const LuaHost&) = delete;
  LuaHost& operator=(const LuaHost&) = delete;

  // Makes fn callable from every script as palace.NAME(...). Must be called before the first
  // load_script: each script gets its own copy of the palace table when it is loaded.
  void register_function(const std::string& name, NativeFunction fn);

  // Loads and runs a script's top level in its own sandboxed environment; `display_name` is
  // used in messages (e.g. "scripts/cannon.lua"). Text chunks only, never bytecode.
  // Throws HookError("scripts/x.lua:3: <lua message>") on a syntax or runtime error or a limit.
  void load_script(const std::string& path, const std::string& display_name);
  // The same for a script's text already read (a variant's, read by its loader).
  void load_source(const std::string& text, const std::string& display_name);

  // True when the script defined a global function of that name (library functions it merely
  // inherited, such as print, do not count).
  bool has_function(const std::string& display_name, const std::string& function) const;

  // The line where that script defines the function, to name in messages about what it answered;
  // 0 when it defines none, -1 for a library function it stored under a name of its own.
  int function_line(const std::string& display_name, const std::string& function) const;

  // `stop` is asked every thousand instructions or so while a script runs; when it answers true the
  // script is stopped and call throws HookInterrupted (position/move_hooks.h). Empty: never asked.
  void set_interrupt(std::function<bool()> stop);
  const std::function<bool()>& interrupt() const;

  // Calls a global function defined by that script and returns its first result. Nothing a call
  // does outlives it: load_script froze what the top level built (see scripts/README.md, "What a
  // hook keeps"). Throws HookError on any failure.
  Value call(const std::string& display_name, const std::string& function,
             const std::vector<Value>& args);

  // --- The fast path of runtime hooks ---------------------------------------------------------
  // Values made once and kept for the host's life, named by a Handle, so that a call made a
  // million times pushes them instead of building them: a script's function, a string, a
  // read-only table, a record (a read-only table whose fields each call sets).

  // The function `function` of the script, for call(Handle, ...). Throws HookError when the
  // script defines none.
  Handle function_handle(const std::string& display_name, const std::string& function);

  // Keeps a string or a table (read-only to scripts, nested tables too). Throws HookError.
  Handle keep(const Value& value);

  // A table the scripts read but cannot change, whose fields `names` each call sets (Fill). Where
  // `lazy_name` is given, reading that field asks `lazy` for a list of kept values the first time
  // in a call: what costs more to work out than most hooks would pay for.
  Handle record(const std::vector<std::string>& names, const std::string& lazy_name = {},
                std::function<void(std::vector<Handle>&)> lazy = {});

  // The new values of a record's fields, in the order record() named them.
  struct Fill {
    Handle record;
    std::span<const Slot> fields;
  };

  // Sets the records' fields, then calls the function with `args` and returns its first result.
  Value call(Handle function, std::span<const Fill> fills, std::span<const Slot> args);

  // Makes fn callable from every script as palace.NAME(...), like register_function, for natives
  // whose arguments are strings (a view without data stands for any other value) and whose answer
  // is a kept value or NoHandle (nil): nothing is converted either way. fn may throw HookError.
  using KeptFunction = std::function<Handle(std::span<const std::string_view> args)>;
  void register_kept_function(const std::string& name, KeptFunction fn);

 private:
  std::unique_ptr<detail::LuaHostState> state_;
};

}  // namespace palace::hooks
