// The Lua hooks a variant names. Load-time hooks answer questions about pairs of piece kinds
// once, before the rules compile, and their answers become plain rule data. Runtime hooks see the
// position and are asked only about the pieces that name one: whether a move is allowed, which
// points a piece may also reach, and how the board changes once it has moved. See
// scripts/README.md.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compiler/variant.h"
#include "hooks/lua_host.h"
#include "loader/rule_set.h"
#include "position/move_hooks.h"

namespace palace {

// Asks every load-time hook (may_jump, may_capture) about every pair of kinds and writes the
// answers into the pieces' screen and capture lists. Throws RuleError naming the hook.
void apply_load_time_hooks(RuleSet& rules);

// The runtime hooks of one variant, on an interpreter of their own. What a hook is given is made
// once, when the interpreter starts: a string for each point's name, a table for each kind and for
// each kind of each side, and the records a call refills (the move, a castling partner).
class LuaMoveHooks final : public MoveHooks {
 public:
  explicit LuaMoveHooks(const Variant& variant);  // throws RuleError when a script fails to load
  // Whether the move passes its piece's allow_move hook. Throws hooks::HookError.
  bool allows(const Position& pos, Kind kind, Move move) override;
  // The points the piece's add_moves hook names. Throws hooks::HookError.
  void add_targets(const Position& pos, Kind kind, Point from, std::vector<AddedTarget>& targets) override;
  // The changes the piece's after_move hook makes. Throws hooks::HookError.
  void after_move(const Position& pos, Kind kind, Point from, Point to, Piece moved, Piece captured,
                  std::vector<PointEdit>& edits) override;
  // What the variant's game_end hook answers. Throws hooks::HookError.
  Outcome game_end(const Position& pos) override;
  void set_interrupt(std::function<bool()> stop) override { host_.set_interrupt(std::move(stop)); }
  const std::function<bool()>& interrupt() const override { return host_.interrupt(); }

 private:
  // Calls a runtime hook with `pos` readable through palace.piece_at and palace.side_to_move.
  hooks::Value call(const Position& pos, const HookRef& hook, hooks::Handle function,
                    std::span<const hooks::LuaHost::Fill> fills, std::span<const hooks::Slot> args);
  // An error about what the hook answered: "script:LINE: function: what".
  hooks::HookError bad_answer(const HookRef& hook, const std::string& what);
  AddedTarget read_target(const Position& pos, Point from, const hooks::Value& entry, const HookRef& hook, int n);
  PointEdit read_edit(const hooks::Value& entry, const std::vector<Piece>& board, const HookRef& hook, int n);
  hooks::Slot point(Point s) const;
  hooks::Slot piece(Piece p) const;

  const Variant& variant_;
  hooks::LuaHost host_;
  std::vector<std::string> script_names_;  // as messages name them, by index into the rules' scripts
  std::vector<hooks::Handle> point_names_;                    // by point
  std::vector<hooks::Handle> kind_tables_;                    // by kind
  std::vector<std::array<hooks::Handle, SideCount>> pieces_;  // by kind, then side
  std::array<hooks::Handle, SideCount> side_names_{};
  enum Hook { AllowMove, AddMoves, AfterMove };
  // Each kind's hooks' functions; NoHandle where it names none, or its script defines none.
  std::vector<std::array<hooks::Handle, 3>> functions_;
  hooks::Handle game_end_ = hooks::NoHandle;  // the ends.game_end hook's function
  hooks::Handle move_ = hooks::NoHandle;     // allow_move's argument
  hooks::Handle partner_ = hooks::NoHandle;  // its `partner`
  hooks::Handle moved_ = hooks::NoHandle;    // after_move's argument
  // The move whose `path` the move record lists when a hook reads it; `from` NoPoint for none.
  struct PathOf {
    Side side;
    Kind kind;
    Point from, to;
  } path_of_{};
  const Position* position_ = nullptr;  // set only while a hook runs
};

// The runtime hooks a Position owns: a handle that borrows an interpreter of its variant for each
// call from a pool the variant's positions share. A call keeps no state (LuaHost::call), so any
// interpreter of the variant answers alike, and a variant needs as many as it has calls running at
// once, not one per game or per copy of a position (each up to the 16 MiB heap cap).
class LuaHooksPool;
class PooledLuaHooks final : public MoveHooks {
 public:
  PooledLuaHooks(std::shared_ptr<LuaHooksPool> pool, const Variant& variant) : pool_(std::move(pool)), variant_(variant) {}
  bool allows(const Position& pos, Kind kind, Move move) override;
  void add_targets(const Position& pos, Kind kind, Point from, std::vector<AddedTarget>& targets) override;
  void after_move(const Position& pos, Kind kind, Point from, Point to, Piece moved, Piece captured,
                  std::vector<PointEdit>& edits) override;
  Outcome game_end(const Position& pos) override;
  void set_interrupt(std::function<bool()> stop) override { interrupt_ = std::move(stop); }
  const std::function<bool()>& interrupt() const override { return interrupt_; }

 private:
  class Lease;
  std::shared_ptr<LuaHooksPool> pool_;
  const Variant& variant_;
  std::function<bool()> interrupt_;
};

}  // namespace palace
