// Moves and FENs as other engines and GUIs write them (UCI, USI, UCCI, CECP, the referee's pipes).
// UCI's is usually Palace's own notation; a variant's `uci:` section (loader/uci_rules.h) says where
// it differs: ranks numbered from the other edge, and how a pass is written. The other protocols
// number the same points their own way (WireStyle).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/variant.h"
#include "position/position.h"

namespace palace {

// How a protocol names points and writes drops and promotions.
enum class WireStyle : std::uint8_t {
  Uci,     // "e2e4", "e7e8q", "P@e4": Palace's coordinates
  Usi,     // "7g7f", "8h2b+", "P*5e", SFEN positions (notation/usi.h)
  Iccs,    // "h2e2": ranks counted from 0 (notation/iccs.h)
  XBoard,  // "e2e4", "P@e4"; ranks counted from 0 on a board of ten, as XBoard does
};

class WireNotation {
 public:
  explicit WireNotation(const Variant& variant, WireStyle style = WireStyle::Uci);

  // The name other engines know the variant by (UCI_Variant).
  const std::string& variant_name() const { return name_; }
  // The name XBoard knows it by (`variant NAME`): the `uci:` section's `xboard:`, else the UCI name.
  const std::string& xboard_name() const;

  std::string square(Point s) const;
  Point parse_point(std::string_view text) const;  // NoPoint when not a point of the board

  // `m`, a move of `pos`'s side to move, as the wire writes it.
  std::string move(const Position& pos, Move m) const;

  // The legal move of `pos` that `text` names. When there is none, returns a null Move and sets
  // `why` to the reason, with the text quoted: "\"e2e5\" is not a legal move here".
  Move parse_move(Position& pos, std::string_view text, std::string& why) const;

  // A FEN between Palace's orientation and the wire's; the one mapping serves both ways, as it is
  // its own inverse. Fields it does not understand pass through for set_fen to judge.
  std::string fen(const std::string& fen) const;
  // A position as the protocol writes it (USI: SFEN), and the Palace FEN of one it wrote. A text
  // that is no position of the protocol's form throws FenError.
  std::string position_text(const std::string& palace_fen) const;
  std::string palace_fen(const std::string& text) const;

 private:
  const Variant& variant_;
  WireStyle style_;
  std::string name_;
  bool mirror_;
  WirePass pass_;
};

// A variant file of a folder, with the names the protocols know it by.
struct WireEntry {
  std::string name;    // UCI_Variant: the `uci:` section's `variant:`, else the variant's name
  std::string xboard;  // XBoard's `variant NAME`: the section's `xboard:`, else `name`
  std::string file;
};

// The variant files of `folder`, by name. Of two files under one name the first by file name
// counts, as a GUI can pick only one; a file that does not load costs its own entry only. `own`,
// where given, answers to its name ahead of the folder's files: an engine started with a house
// rule or an engine overlay keeps it when a GUI names the game it plays, as Cute Chess always does.
std::vector<WireEntry> wire_catalogue(const std::string& folder, const std::string& own = "");

}  // namespace palace
