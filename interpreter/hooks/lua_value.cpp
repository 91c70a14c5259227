// Value: the C++ side of a Lua value, as declared in lua_host.h. Plain C++, no Lua calls.
#include "hooks/lua_host.h"

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <variant>

namespace palace::hooks {

Value Value::nil() { return Value{}; }

Value Value::boolean(bool b) {
  Value x;
  x.v.emplace<bool>(b);
  return x;
}

Value Value::integer(std::int64_t i) {
  Value x;
  x.v.emplace<std::int64_t>(i);
  return x;
}

Value Value::number(double d) {
  Value x;
  x.v.emplace<double>(d);
  return x;
}

Value Value::string(std::string s) {
  Value x;
  x.v.emplace<std::string>(std::move(s));
  return x;
}

Value Value::table(Table entries) {
  Value x;
  x.v.emplace<std::shared_ptr<Table>>(std::make_shared<Table>(std::move(entries)));
  return x;
}

bool Value::is_nil() const { return std::holds_alternative<std::monostate>(v); }
bool Value::is_bool() const { return std::holds_alternative<bool>(v); }
bool Value::is_integer() const { return std::holds_alternative<std::int64_t>(v); }
bool Value::is_number() const { return std::holds_alternative<double>(v); }
bool Value::is_numeric() const { return is_integer() || is_number(); }
bool Value::is_string() const { return std::holds_alternative<std::string>(v); }
bool Value::is_table() const { return std::holds_alternative<std::shared_ptr<Table>>(v); }

namespace {

[[noreturn]] void throw_type_error(const Value& value, const char* wanted) {
  throw HookError(std::string("expected ") + wanted + " value, got " + value.type_name());
}

const Table& empty_table() {
  static const Table kEmpty;
  return kEmpty;
}

}  // namespace

bool Value::as_bool() const {
  if (const bool* b = std::get_if<bool>(&v)) return *b;
  throw_type_error(*this, "boolean");
}

std::int64_t Value::as_integer() const {
  if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return *i;
  throw_type_error(*this, "integer");
}

double Value::as_number() const {
  if (const double* d = std::get_if<double>(&v)) return *d;
  if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  throw_type_error(*this, "number");
}

const std::string& Value::as_string() const {
  if (const std::string* s = std::get_if<std::string>(&v)) return *s;
  throw_type_error(*this, "string");
}

const Table& Value::as_table() const {
  if (const auto* t = std::get_if<std::shared_ptr<Table>>(&v)) return *t ? **t : empty_table();
  throw_type_error(*this, "table");
}

Table& Value::as_table() {
  if (auto* t = std::get_if<std::shared_ptr<Table>>(&v)) {
    if (!*t) *t = std::make_shared<Table>();
    return **t;
  }
  throw_type_error(*this, "table");
}

const Value* Value::find(const Value& key) const {
  const auto* t = std::get_if<std::shared_ptr<Table>>(&v);
  if (!t || !*t) return nullptr;
  const Value* found = nullptr;
  for (const auto& [k, val] : **t) {
    if (k == key) found = &val;
  }
  return found;
}

const Value* Value::find(std::string_view key) const {
  const auto* t = std::get_if<std::shared_ptr<Table>>(&v);
  if (!t || !*t) return nullptr;
  const Value* found = nullptr;
  for (const auto& [k, val] : **t) {
    const std::string* s = std::get_if<std::string>(&k.v);
    if (s && *s == key) found = &val;
  }
  return found;
}

const char* Value::type_name() const {
  static constexpr const char* kNames[] = {"nil", "boolean", "integer", "number", "string", "table"};
  return kNames[v.index()];
}

std::string Value::debug_string() const {
  switch (v.index()) {
    case 0:
      return "nil";
    case 1:
      return std::get<bool>(v) ? "true" : "false";
    case 2:
      return std::to_string(std::get<std::int64_t>(v));
    case 3: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", std::get<double>(v));
      std::string out = buf;
      if (out.find_first_not_of("-0123456789") == std::string::npos) out += ".0";
      return out;
    }
    case 4: {
      std::string out = "\"";
      for (char c : std::get<std::string>(v)) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      return out + "\"";
    }
    default: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, val] : as_table()) {
        out += first ? "" : ", ";
        first = false;
        out += '[';
        out += k.debug_string();
        out += "] = ";
        out += val.debug_string();
      }
      return out + "}";
    }
  }
}

bool operator==(const Value& a, const Value& b) {
  if (a.v.index() != b.v.index()) return false;
  switch (a.v.index()) {
    case 0:
      return true;
    case 1:
      return std::get<bool>(a.v) == std::get<bool>(b.v);
    case 2:
      return std::get<std::int64_t>(a.v) == std::get<std::int64_t>(b.v);
    case 3:
      return std::get<double>(a.v) == std::get<double>(b.v);
    case 4:
      return std::get<std::string>(a.v) == std::get<std::string>(b.v);
    default: {
      const auto& pa = std::get<std::shared_ptr<Table>>(a.v);
      const auto& pb = std::get<std::shared_ptr<Table>>(b.v);
      if (pa == pb) return true;
      return a.as_table() == b.as_table();
    }
  }
}

}  // namespace palace::hooks
