// Moves and FENs as other engines and GUIs write them (UCI, the referee's pipes). Usually the same as
// Palace's own notation; a variant's `uci:` section (loader/uci_rules.h) says where it differs: ranks
// numbered from the other edge, and how a pass is written.
#pragma once

#include <string>
#include <string_view>

#include "compiler/variant.h"
#include "position/position.h"

namespace palace {

class WireNotation {
 public:
  explicit WireNotation(const Variant& variant);

  // The name other engines know the variant by (UCI_Variant).
  const std::string& variant_name() const { return name_; }

  std::string square(Square s) const;
  Square parse_square(std::string_view text) const;  // NoSquare when not a point of the board

  // `m`, a move of `pos`'s side to move, as the wire writes it.
  std::string move(const Position& pos, Move m) const;

  // The legal move of `pos` that `text` names. When there is none, returns a null Move and sets
  // `why` to the reason, with the text quoted: "\"e2e5\" is not a legal move here".
  Move parse_move(Position& pos, std::string_view text, std::string& why) const;

  // A FEN between Palace's orientation and the wire's; the one mapping serves both ways, as it is
  // its own inverse. Fields it does not understand pass through for set_fen to judge.
  std::string fen(const std::string& fen) const;

 private:
  const Variant& variant_;
  std::string name_;
  bool mirror_;
  WirePass pass_;
};

}  // namespace palace
