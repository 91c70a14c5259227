#include "hooks/rule_hooks.h"

#include <cstdlib>
#include <filesystem>

#include "position/position.h"

namespace palace {

using hooks::HookError;
using hooks::Value;

RuleHooks::RuleHooks(const RuleSet& rules) : rules_(rules) {
  // The board as runtime hooks see it. Outside a runtime hook there is no position to look at.
  auto position = [this]() -> const Position& {
    if (!position_) throw HookError("the board can only be read by a move hook");
    return *position_;
  };
  host_.register_function("piece_at", [this, position](const std::vector<Value>& args) {
    const Position& pos = position();
    const Square s = args.empty() || !args[0].is_string() ? NoSquare : pos.variant().board().parse_square(args[0].as_string());
    if (s == NoSquare) throw HookError("palace.piece_at expects a point name such as \"e5\"");
    return pos.at(s) ? piece_value(pos.at(s)) : Value::nil();
  });
  host_.register_function("side_to_move", [this, position](const std::vector<Value>&) {
    return Value::string(rules_.sides[position().side_to_move()].name);
  });

  // Scripts are named by their path from the variant file's folder: short, and still a path.
  const auto folder = std::filesystem::path(rules_.source_file).parent_path();
  for (const ScriptDef& script : rules_.scripts) {
    const std::string relative = std::filesystem::path(script.path).lexically_relative(folder).string();
    script_names_.push_back(relative.empty() ? script.path : relative);
    try {
      host_.load_script(script.path, script_names_.back());
    } catch (const HookError& e) {
      throw RuleError(e.what());
    }
  }
}

Value RuleHooks::kind_value(int kind) const {
  const PieceDef& def = rules_.pieces[kind];
  return Value::table({{Value::string("name"), Value::string(def.name)},
                       {Value::string("letter"), Value::string(std::string(1, def.letter))},
                       {Value::string("value"), Value::number(def.value)},
                       {Value::string("royal"), Value::boolean(def.royal)}});
}

Value RuleHooks::piece_value(Piece p) const {
  Value v = kind_value(kind_of(p));
  v.as_table().emplace_back(Value::string("side"), Value::string(rules_.sides[side_of(p)].name));
  return v;
}

bool RuleHooks::ask_pair(const HookRef& hook, int first_kind, int second_kind) {
  try {
    const Value answer = host_.call(display_name(hook), hook.function, {kind_value(first_kind), kind_value(second_kind)});
    if (!answer.is_bool())
      throw HookError(display_name(hook) + ": " + hook.function + " must return true or false, not " + answer.type_name());
    return answer.as_bool();
  } catch (const HookError& e) {
    throw RuleError(hook.mark, "", e.what());
  }
}

bool RuleHooks::allow_move(const HookRef& hook, const Position& pos, Move move) {
  const BoardDef& board = pos.variant().board();
  const Square from = move.from(), to = move.to();
  // The pieces between the two points when they lie on one straight line, nearest first.
  hooks::Table path;
  const int df = board.file_of(to) - board.file_of(from), dr = board.rank_of(to) - board.rank_of(from);
  if (df == 0 || dr == 0 || std::abs(df) == std::abs(dr)) {
    const int steps = std::max(std::abs(df), std::abs(dr));
    for (int i = 1; i < steps; ++i) {
      const Square s = board.square(board.file_of(from) + df / steps * i, board.rank_of(from) + dr / steps * i);
      if (pos.at(s)) path.emplace_back(Value::integer(std::int64_t(path.size()) + 1), piece_value(pos.at(s)));
    }
  }
  hooks::Table m = {{Value::string("from"), Value::string(board.square_name(from))},
             {Value::string("to"), Value::string(board.square_name(to))},
             {Value::string("piece"), piece_value(pos.at(from))},
             {Value::string("path"), Value::table(std::move(path))}};
  if (pos.at(to)) m.emplace_back(Value::string("captured"), piece_value(pos.at(to)));

  position_ = &pos;
  try {
    const Value answer = host_.call(display_name(hook), hook.function, {Value::table(std::move(m))});
    position_ = nullptr;
    if (!answer.is_bool())
      throw HookError(display_name(hook) + ": " + hook.function + " must return true or false, not " + answer.type_name());
    return answer.as_bool();
  } catch (...) {
    position_ = nullptr;
    throw;
  }
}

}  // namespace palace
