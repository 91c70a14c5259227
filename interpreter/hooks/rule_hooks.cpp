#include "hooks/rule_hooks.h"

#include "compiler/routes.h"
#include "position/position.h"

namespace palace {

using hooks::HookError;
using hooks::Value;

namespace {

void load_scripts(hooks::LuaHost& host, const RuleSet& rules) {
  for (const ScriptDef& script : rules.scripts) {
    try {
      host.load_script(script.path, script.path);
    } catch (const HookError& e) {
      throw RuleError(e.what());
    }
  }
}

const std::string& display_name(const RuleSet& rules, const HookRef& hook) { return rules.scripts[hook.script].path; }

// Calls a hook that must answer true or false.
bool ask(hooks::LuaHost& host, const RuleSet& rules, const HookRef& hook, std::vector<Value> args) {
  const Value answer = host.call(display_name(rules, hook), hook.function, std::move(args));
  if (!answer.is_bool())
    throw HookError(display_name(rules, hook) + ": " + hook.function + " must return true or false, not " + answer.type_name());
  return answer.as_bool();
}

Value kind_value(const RuleSet& rules, int kind) {
  const PieceDef& def = rules.pieces[kind];
  return Value::table({{Value::string("name"), Value::string(def.name)},
                       {Value::string("letter"), Value::string(std::string(1, def.letter))},
                       {Value::string("value"), Value::number(def.value)},
                       {Value::string("royal"), Value::boolean(def.royal)}});
}

Value piece_value(const RuleSet& rules, Piece p) {
  Value v = kind_value(rules, kind_of(p));
  v.as_table().emplace_back(Value::string("side"), Value::string(rules.sides[side_of(p)].name));
  return v;
}

}  // namespace

// Hooks whose answer depends only on the kinds involved are asked once per pair here, and their
// answers land in the same lists YAML fills, so move generation never calls Lua for them.
void apply_load_time_hooks(RuleSet& rules) {
  hooks::LuaHost host;
  load_scripts(host, rules);
  const int kinds = int(rules.pieces.size());
  for (int a = 0; a < kinds; ++a) {
    PieceDef& piece = rules.pieces[a];
    for (const auto& [hook, answers] : {std::pair{&piece.may_jump_hook, &piece.may_screen}, std::pair{&piece.may_capture_hook, &piece.may_capture}}) {
      if (!*hook) continue;
      for (int b = 0; b < kinds; ++b) {
        try {
          if (!ask(host, rules, *hook, {kind_value(rules, a), kind_value(rules, b)})) (*answers)[b] = false;
        } catch (const HookError& e) {
          throw RuleError(hook->mark, "", e.what());
        }
      }
    }
  }
}

LuaMoveHooks::LuaMoveHooks(const Variant& variant) : variant_(variant) {
  const RuleSet& rules = variant_.rules();
  // The board as runtime hooks see it. Outside a runtime hook there is no position to look at.
  auto position = [this]() -> const Position& {
    if (!position_) throw HookError("the board can only be read by a move hook");
    return *position_;
  };
  host_.register_function("piece_at", [&rules, position](const std::vector<Value>& args) {
    const Position& pos = position();
    const Square s = args.empty() || !args[0].is_string() ? NoSquare : rules.board.parse_square(args[0].as_string());
    if (s == NoSquare) throw HookError("palace.piece_at expects a point name such as \"e5\"");
    return pos.at(s) ? piece_value(rules, pos.at(s)) : Value::nil();
  });
  host_.register_function("side_to_move", [&rules, position](const std::vector<Value>&) {
    return Value::string(rules.sides[position().side_to_move()].name);
  });
  load_scripts(host_, rules);
}

bool LuaMoveHooks::allows(const Position& pos, int kind, Move move) {
  const RuleSet& rules = variant_.rules();
  const BoardDef& board = rules.board;
  const Square from = move.from(), to = move.to();
  // The pieces on the way, nearest first, along the first route of the piece's movement that
  // reaches the target (a compound move's piece has none).
  hooks::Table path;
  const auto routes = routes_between(variant_, side_of(pos.at(from)), kind, from, to);
  if (!routes.empty())
    for (const Square s : routes.front().between)
      if (pos.at(s)) path.emplace_back(Value::integer(std::int64_t(path.size()) + 1), piece_value(rules, pos.at(s)));
  hooks::Table m = {{Value::string("from"), Value::string(board.square_name(from))},
                    {Value::string("to"), Value::string(board.square_name(to))},
                    {Value::string("piece"), piece_value(rules, pos.at(from))},
                    {Value::string("path"), Value::table(std::move(path))}};
  if (pos.at(to) && side_of(pos.at(to)) != side_of(pos.at(from))) m.emplace_back(Value::string("captured"), piece_value(rules, pos.at(to)));

  position_ = &pos;
  try {
    const bool answer = ask(host_, rules, rules.pieces[kind].allow_move_hook, {Value::table(std::move(m))});
    position_ = nullptr;
    return answer;
  } catch (...) {
    position_ = nullptr;
    throw;
  }
}

}  // namespace palace
