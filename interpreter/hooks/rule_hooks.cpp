#include "hooks/rule_hooks.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <mutex>
#include <unordered_map>

#include "compiler/routes.h"
#include "core/text.h"
#include "position/position.h"

namespace palace {

using hooks::HookError;
using hooks::Value;

namespace {

// Loads every script of the rules, each named in messages by its path from the variant file's
// folder: short, whatever the checkout's path, and still a path. Returns the names by index.
std::vector<std::string> load_scripts(hooks::LuaHost& host, const RuleSet& rules) {
  const auto folder = std::filesystem::path(rules.source_file).lexically_normal().parent_path();
  std::vector<std::string> names;
  for (const ScriptDef& script : rules.scripts) {
    const std::string relative = std::filesystem::path(script.path).lexically_normal().lexically_relative(folder).string();
    names.push_back(relative.empty() ? script.path : relative);
    try {
      host.load_source(script.text, names.back());
    } catch (const HookError& e) {
      throw RuleError(e.what());
    }
  }
  return names;
}

// An error about what a hook answered, named like Lua's own errors: where the function is defined.
HookError answer_error(const hooks::LuaHost& host, const std::string& script_name, const std::string& function,
                       const std::string& what) {
  std::string where = script_name;
  if (const int line = host.function_line(script_name, function); line > 0) where.append(":").append(std::to_string(line));
  return HookError(where + ": " + function + ": " + what);
}

// Calls a hook that must answer true or false.
bool ask(hooks::LuaHost& host, const std::string& script_name, const std::string& function, std::vector<Value> args) {
  const Value answer = host.call(script_name, function, std::move(args));
  if (!answer.is_bool()) throw answer_error(host, script_name, function, std::string("must return true or false, not ") + answer.type_name());
  return answer.as_bool();
}

// A key or value a hook returned, for a message.
std::string shown(const Value& v) { return v.is_string() ? quote(v.as_string()) : quote(v.debug_string()); }

// The entries of a list a hook returned (nil is the empty list), or an error naming what it holds.
const hooks::Table& list_answer(const Value& answer, const std::function<HookError(const std::string&)>& fail,
                                const std::string& of) {
  static const hooks::Table none;
  if (answer.is_nil()) return none;
  if (!answer.is_table()) throw fail("must return a list of " + of + ", not " + answer.type_name());
  const hooks::Table& entries = answer.as_table();
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (!entries[i].first.is_integer() || entries[i].first.as_integer() != std::int64_t(i) + 1)
      throw fail("must return a list of " + of + "; its answer has the key " + shown(entries[i].first));
  return entries;
}

Value kind_value(const RuleSet& rules, Kind kind) {
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
  const std::vector<std::string> names = load_scripts(host, rules);
  const int kinds = int(rules.pieces.size());
  for (Kind a = Kind(0); a < kinds; ++a) {
    PieceDef& piece = rules.pieces[a];
    for (const auto& [hook, answers] : {std::pair{&piece.may_jump_hook, &piece.may_jump}, std::pair{&piece.may_capture_hook, &piece.may_capture}}) {
      if (!*hook) continue;
      for (Kind b = Kind(0); b < kinds; ++b) {
        try {
          if (!ask(host, names[hook->script], hook->function, {kind_value(rules, a), kind_value(rules, b)})) (*answers)[b] = false;
        } catch (const HookError& e) {
          throw RuleError(hook->mark, "", e.what());
        }
      }
    }
  }
}

namespace {

using hooks::Handle;
using hooks::NoHandle;
using hooks::Slot;

// The move record's fields, in this order (LuaMoveHooks::allows fills them).
const std::vector<std::string> kMoveFields = {"from", "to", "piece", "captured", "promotion", "partner", "victim", "drop", "path"};
constexpr std::size_t kMoveFieldCount = 9;
const std::vector<std::string> kPartnerFields = {"from", "to", "kind"};
const std::vector<std::string> kMovedFields = {"from", "to", "piece", "captured"};

}  // namespace

LuaMoveHooks::LuaMoveHooks(const Variant& variant) : variant_(variant) {
  const RuleSet& rules = variant_.rules();
  // The board as runtime hooks see it. Outside a runtime hook there is no position to look at.
  auto position = [this]() -> const Position& {
    if (!position_) throw HookError("the board can only be read by a move hook");
    return *position_;
  };
  host_.register_kept_function("piece_at", [this, &rules, position](std::span<const std::string_view> args) {
    const Position& pos = position();
    const Point s = args.empty() || args[0].data() == nullptr ? NoPoint : rules.board.parse_point(std::string(args[0]));
    if (s == NoPoint) throw HookError("palace.piece_at expects a point name such as \"e5\"");
    return pos.at(s) ? pieces_[kind_of(pos.at(s))][side_of(pos.at(s))] : NoHandle;
  });
  host_.register_kept_function("side_to_move", [this, position](std::span<const std::string_view>) {
    return side_names_[position().side_to_move()];
  });
  script_names_ = load_scripts(host_, rules);

  try {
    for (Point s = Point(0); s < variant_.squares(); ++s) point_names_.push_back(host_.keep(Value::string(rules.board.point_name(s))));
    for (Side side = First; side < SideCount; ++side) side_names_[side] = host_.keep(Value::string(rules.sides[side].name));
    for (Kind k = Kind(0); k < variant_.kinds(); ++k) {
      kind_tables_.push_back(host_.keep(kind_value(rules, k)));
      pieces_.emplace_back();
      for (Side side = First; side < SideCount; ++side) pieces_.back()[side] = host_.keep(piece_value(rules, make_piece(side, k)));
    }
    // The pieces between a move's two points, nearest first, along the first route of its piece's
    // movement that reaches the target: asked only by a hook that reads it.
    move_ = host_.record(kMoveFields, "path", [this](std::vector<Handle>& out) {
      if (!position_ || path_of_.from == NoPoint) return;
      const auto routes = routes_between(variant_, path_of_.side, path_of_.kind, path_of_.from, path_of_.to);
      if (!routes.empty())
        for (const Point s : routes.front().between)
          if (const Piece p = position_->at(s)) out.push_back(pieces_[kind_of(p)][side_of(p)]);
    });
    partner_ = host_.record(kPartnerFields);
    moved_ = host_.record(kMovedFields);
  } catch (const HookError& e) {
    throw RuleError(e.what());
  }
  for (Kind k = Kind(0); k < variant_.kinds(); ++k) {
    const PieceDef& def = rules.pieces[k];
    functions_.emplace_back();
    int i = 0;
    for (const HookRef* hook : {&def.allow_move_hook, &def.add_moves_hook, &def.after_move_hook}) {
      Handle& handle = functions_.back()[std::size_t(i++)];
      handle = NoHandle;
      if (!*hook || !host_.has_function(script_names_[hook->script], hook->function)) continue;
      handle = host_.function_handle(script_names_[hook->script], hook->function);
    }
  }
  if (const HookRef& end = variant_.ends().get<GameEnd>().hook; end && host_.has_function(script_names_[end.script], end.function))
    game_end_ = host_.function_handle(script_names_[end.script], end.function);
}

Slot LuaMoveHooks::point(Point s) const { return s == NoPoint ? Slot::nil() : Slot::kept(point_names_[s]); }

Slot LuaMoveHooks::piece(Piece p) const { return p ? Slot::kept(pieces_[kind_of(p)][side_of(p)]) : Slot::nil(); }

bool LuaMoveHooks::allows(const Position& pos, Kind kind, Move move) {
  const Point from = move.from();
  Point to = move.to();
  const bool drop = move.type() == MoveType::Drop;
  const Piece mover = drop ? make_piece(pos.side_to_move(), kind) : pos.at(from);
  const Side side = side_of(mover);
  Piece captured = NoPiece;
  Point victim = NoPoint;
  Slot partner[3];
  bool compound = false;
  path_of_ = {side, kind, from, to};
  switch (move.type()) {
    case MoveType::Drop:
      path_of_.from = NoPoint;
      break;
    case MoveType::CaptureGhost:
      victim = pos.state().ghost_victim;
      captured = pos.at(victim);
      break;
    case MoveType::Compound: {
      const CompoundMove& c = variant_.compound_moves()[std::size_t(move.extra())];
      to = c.to;
      partner[0] = point(c.partner_from);
      partner[1] = point(c.partner_to);
      partner[2] = Slot::kept(kind_tables_[c.partner]);
      compound = true;
      path_of_.from = NoPoint;
      break;
    }
    default:
      if (pos.at(to) && side_of(pos.at(to)) != side) captured = pos.at(to);
  }
  const Kind promotion = move.promotion_kind();
  const Slot fields[kMoveFieldCount] = {drop ? Slot::nil() : point(from),
                                        point(to),
                                        piece(mover),
                                        piece(captured),
                                        promotion == NoKind ? Slot::nil() : Slot::kept(kind_tables_[promotion]),
                                        compound ? Slot::kept(partner_) : Slot::nil(),
                                        point(victim),
                                        drop ? Slot::boolean(true) : Slot::nil(),
                                        Slot::nil()};
  const hooks::LuaHost::Fill fills[2] = {{move_, fields}, {partner_, partner}};
  const Slot args[1] = {Slot::kept(move_)};
  const HookRef& hook = variant_.rules().pieces[kind].allow_move_hook;
  const Value answer = call(pos, hook, functions_[kind][AllowMove], std::span(fills, compound ? 2 : 1), args);
  if (!answer.is_bool()) throw bad_answer(hook, std::string("must return true or false, not ") + answer.type_name());
  return answer.as_bool();
}

void LuaMoveHooks::add_targets(const Position& pos, Kind kind, Point from, std::vector<AddedTarget>& targets) {
  const HookRef& hook = variant_.rules().pieces[kind].add_moves_hook;
  const Slot args[2] = {piece(pos.at(from)), point(from)};
  const Value answer = call(pos, hook, functions_[kind][AddMoves], {}, args);
  const auto fail = [&](const std::string& what) { return bad_answer(hook, what); };
  const hooks::Table& entries = list_answer(answer, fail, "points");
  // Each point once at most, each way: a longer list only repeats itself, at the generator's cost.
  if (const std::size_t most = 2 * std::size_t(variant_.squares()); entries.size() > most)
    throw fail("returned " + std::to_string(entries.size()) + " points; at most " + std::to_string(most) + " are allowed");
  int n = 0;
  for (const auto& entry : entries) targets.push_back(read_target(pos, from, entry.second, hook, ++n));
}

// "e5", or {to = "e5", only = "move"} or {to = "e5", only = "capture"}.
AddedTarget LuaMoveHooks::read_target(const Position& pos, Point from, const Value& entry, const HookRef& hook, int n) {
  const RuleSet& rules = variant_.rules();
  const std::string which = "point " + std::to_string(n) + " of the answer: ";
  const Value* to = entry.is_table() ? entry.find("to") : &entry;
  if (!to || !to->is_string())
    throw bad_answer(hook, which + "expected a point name or {to = POINT, only = \"move\" or \"capture\"}, not " + entry.type_name());
  AddedTarget target{rules.board.parse_point(to->as_string()), CanMove | CanCapture};
  if (target.to == NoPoint) throw bad_answer(hook, which + "no point " + quote(to->as_string()) + " on this board");
  if (const Value* only = entry.is_table() ? entry.find("only") : nullptr; only && !only->is_nil()) {
    if (!only->is_string() || (only->as_string() != "move" && only->as_string() != "capture"))
      throw bad_answer(hook, which + "only must be \"move\" or \"capture\", not " + shown(*only));
    target.modes = only->as_string() == "move" ? CanMove : CanCapture;
  }
  const Piece mover = pos.at(from), occupant = pos.at(target.to);
  const std::string point = rules.board.point_name(target.to);
  if (target.to == from) throw bad_answer(hook, which + point + " is where the " + rules.pieces[kind_of(mover)].name + " stands");
  if (occupant && side_of(occupant) == side_of(mover))
    throw bad_answer(hook, which + point + " holds " + rules.sides[side_of(mover)].name + "'s own " +
                               rules.pieces[kind_of(occupant)].name);
  return target;
}

void LuaMoveHooks::after_move(const Position& pos, Kind kind, Point from, Point to, Piece moved, Piece captured,
                              std::vector<PointEdit>& edits) {
  const RuleSet& rules = variant_.rules();
  const HookRef& hook = rules.pieces[kind].after_move_hook;
  const Slot fields[4] = {point(from), point(to), piece(moved), piece(captured)};
  const hooks::LuaHost::Fill fills[1] = {{moved_, fields}};
  const Slot args[1] = {Slot::kept(moved_)};
  const Value answer = call(pos, hook, functions_[kind][AfterMove], fills, args);
  const auto fail = [&](const std::string& what) { return bad_answer(hook, what); };
  const hooks::Table& entries = list_answer(answer, fail, "edits ({at = POINT, piece = PIECE or nil})");
  constexpr std::size_t MaxEdits = 64;  // with an explosion's, still counted by StateRecord::edited
  if (entries.size() > MaxEdits)
    throw fail("returned " + std::to_string(entries.size()) + " edits; at most " + std::to_string(MaxEdits) + " are allowed");
  if (entries.empty()) return;

  // The board as the edits leave it, for the checks that look at more than one edit.
  std::vector<Piece> board(std::size_t(variant_.squares()));
  for (Point s = Point(0); s < variant_.squares(); ++s) board[s] = pos.at(s);
  int n = 0;
  for (const auto& entry : entries) {
    edits.push_back(read_edit(entry.second, board, hook, ++n));
    board[edits.back().at] = edits.back().piece;
  }
  for (Side side = First; side < SideCount; ++side) {
    const int pieces = int(std::count_if(board.begin(), board.end(), [&](Piece p) { return p && side_of(p) == side; }));
    const int bound = variant_.most_moves(side, pieces);
    if (bound > MaxMoves)
      throw fail("the edits leave " + rules.sides[side].name + " " + std::to_string(pieces) + " pieces, which could make up to " +
                 std::to_string(bound) + " moves; at most " + std::to_string(MaxMoves) + " are supported");
  }
}

// nil or false while the game goes on; {winner = SIDE} or {draw = true} once it has ended.
Outcome LuaMoveHooks::game_end(const Position& pos) {
  const HookRef& hook = variant_.ends().get<GameEnd>().hook;
  const Value answer = call(pos, hook, game_end_, {}, {});
  if (answer.is_nil() || (answer.is_bool() && !answer.as_bool())) return {};
  const Value* winner = answer.is_table() ? answer.find("winner") : nullptr;
  const Value* draw = answer.is_table() ? answer.find("draw") : nullptr;
  const bool drawn = draw && draw->is_bool() && draw->as_bool();
  if (drawn == (winner && !winner->is_nil()))
    throw bad_answer(hook, "must return nil while the game goes on, or {winner = SIDE} or {draw = true}, not " + shown(answer));
  if (drawn) return {Termination::GameEnd, std::nullopt};
  const std::optional<Side> side = winner->is_string() ? variant_.rules().side_by_name(winner->as_string()) : std::nullopt;
  if (!side) throw bad_answer(hook, "winner must name a side, not " + shown(*winner));
  return {Termination::GameEnd, *side};
}

// {at = "e5"} empties a point; {at = "e5", piece = {name = "rook", side = "black"}} puts that piece
// there, in place of any other.
PointEdit LuaMoveHooks::read_edit(const Value& entry, const std::vector<Piece>& board, const HookRef& hook, int n) {
  const RuleSet& rules = variant_.rules();
  const std::string which = "edit " + std::to_string(n) + ": ";
  const Value* at = entry.is_table() ? entry.find("at") : nullptr;
  if (!at || !at->is_string())
    throw bad_answer(hook, which + "expected {at = POINT, piece = PIECE or nil}, not " +
                               (entry.is_table() ? "a table without at = POINT" : entry.type_name()));
  PointEdit edit{rules.board.parse_point(at->as_string()), NoPiece};
  if (edit.at == NoPoint) throw bad_answer(hook, which + "no point " + quote(at->as_string()) + " on this board");
  const std::string point = rules.board.point_name(edit.at);
  if (const Piece there = board[edit.at]; there && variant_.royal(kind_of(there)))
    throw bad_answer(hook, which + point + " holds " + rules.sides[side_of(there)].name + "'s " + rules.pieces[kind_of(there)].name +
                               ", which is royal: no edit may remove or replace it");
  const Value* piece = entry.find("piece");
  if (!piece || piece->is_nil()) return edit;
  const Value* name = piece->is_table() ? piece->find("name") : nullptr;
  const Value* side = piece->is_table() ? piece->find("side") : nullptr;
  if (!name || !side || !name->is_string() || !side->is_string())
    throw bad_answer(hook, which + "piece must be {name = KIND, side = SIDE} or nil, not " +
                               (piece->is_table() ? "a table without both" : piece->type_name()));
  const Kind kind = rules.kind_by_name(name->as_string());
  if (kind < 0) throw bad_answer(hook, which + "no piece kind " + quote(name->as_string()));
  const auto s = std::find_if(rules.sides.begin(), rules.sides.end(), [&](const SideDef& d) { return d.name == side->as_string(); });
  if (s == rules.sides.end()) throw bad_answer(hook, which + "no side " + quote(side->as_string()));
  const PieceDef& def = rules.pieces[kind];
  if (variant_.royal(kind)) throw bad_answer(hook, which + "the " + def.name + " is royal: no edit may place one");
  if (def.stay_in >= 0 && !s->zones[def.stay_in][edit.at])
    throw bad_answer(hook, which + "the " + def.name + " may not stand on " + point + ", outside its zone " + quote(rules.zone_names[def.stay_in]));
  edit.piece = make_piece(Side(s - rules.sides.begin()), kind);
  return edit;
}

Value LuaMoveHooks::call(const Position& pos, const HookRef& hook, Handle function, std::span<const hooks::LuaHost::Fill> fills,
                         std::span<const Slot> args) {
  if (function == NoHandle) throw HookError(script_names_[hook.script] + ": no function " + quote(hook.function));
  // The board is readable only while the hook runs, however it ends.
  position_ = &pos;
  struct Forget {
    const Position*& slot;
    ~Forget() { slot = nullptr; }
  } forget{position_};
  return host_.call(function, fills, args);
}

HookError LuaMoveHooks::bad_answer(const HookRef& hook, const std::string& what) {
  return answer_error(host_, script_names_[hook.script], hook.function, what);
}

// Interpreters not in use, for the variant's positions to borrow. Past MaxIdle idle ones, one
// given back is dropped: a burst of parallel calls does not keep its heaps for good. One idle
// interpreter waits in `ready_`, taken and given back without the lock: a thread alone on the
// variant, as perft and a search's thread are, borrows it for every call.
class LuaHooksPool {
 public:
  static constexpr std::size_t MaxIdle = 8;

  LuaHooksPool() = default;
  LuaHooksPool(const LuaHooksPool&) = delete;
  LuaHooksPool& operator=(const LuaHooksPool&) = delete;
  ~LuaHooksPool() { delete ready_.load(); }

  std::unique_ptr<LuaMoveHooks> take(const Variant& variant) {
    if (LuaMoveHooks* ready = ready_.exchange(nullptr, std::memory_order_acquire)) return std::unique_ptr<LuaMoveHooks>(ready);
    {
      const std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        auto hooks = std::move(idle_.back());
        idle_.pop_back();
        return hooks;
      }
    }
    return std::make_unique<LuaMoveHooks>(variant);  // loading scripts takes time: outside the lock
  }

  void give_back(std::unique_ptr<LuaMoveHooks> hooks) {
    LuaMoveHooks* empty = nullptr;
    if (ready_.compare_exchange_strong(empty, hooks.get(), std::memory_order_release)) {
      (void)hooks.release();
      return;
    }
    const std::lock_guard lock(mutex_);
    if (idle_.size() < MaxIdle) idle_.push_back(std::move(hooks));
  }

 private:
  std::atomic<LuaMoveHooks*> ready_{nullptr};
  std::mutex mutex_;
  std::vector<std::unique_ptr<LuaMoveHooks>> idle_;
};

// One borrowed interpreter for the length of a call, asking this handle's interrupt.
class PooledLuaHooks::Lease {
 public:
  explicit Lease(PooledLuaHooks& owner) : owner_(owner), hooks_(owner.pool_->take(owner.variant_)) {
    if (owner_.interrupt_) hooks_->set_interrupt([this] { return owner_.interrupt_(); });
  }
  ~Lease() {
    if (owner_.interrupt_) hooks_->set_interrupt({});
    owner_.pool_->give_back(std::move(hooks_));
  }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  LuaMoveHooks* operator->() const { return hooks_.get(); }

 private:
  PooledLuaHooks& owner_;
  std::unique_ptr<LuaMoveHooks> hooks_;
};

bool PooledLuaHooks::allows(const Position& pos, Kind kind, Move move) { return Lease(*this)->allows(pos, kind, move); }

Outcome PooledLuaHooks::game_end(const Position& pos) { return Lease(*this)->game_end(pos); }

void PooledLuaHooks::add_targets(const Position& pos, Kind kind, Point from, std::vector<AddedTarget>& targets) {
  Lease(*this)->add_targets(pos, kind, from, targets);
}

void PooledLuaHooks::after_move(const Position& pos, Kind kind, Point from, Point to, Piece moved, Piece captured,
                                std::vector<PointEdit>& edits) {
  Lease(*this)->after_move(pos, kind, from, to, moved, captured, edits);
}

namespace {

// The pool of a compiled variant: made for its first position, gone with its last. A variant
// outlives its positions, so its address names one variant for as long as its pool lives.
std::shared_ptr<LuaHooksPool> pool_of(const Variant& variant) {
  static std::mutex mutex;
  static std::unordered_map<const Variant*, std::weak_ptr<LuaHooksPool>> pools;
  const std::lock_guard lock(mutex);
  if (auto pool = pools[&variant].lock()) return pool;
  std::erase_if(pools, [](const auto& entry) { return entry.second.expired(); });
  auto pool = std::make_shared<LuaHooksPool>();
  pools[&variant] = pool;
  return pool;
}

}  // namespace

std::unique_ptr<MoveHooks> make_move_hooks(const Variant& variant) {
  const bool hooked = variant.has_runtime_hooks() || variant.ends().get<GameEnd>().hook;
  return hooked ? std::make_unique<PooledLuaHooks>(pool_of(variant), variant) : nullptr;
}

}  // namespace palace
