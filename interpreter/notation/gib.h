// Kakao Janggi's .gib records: PGN-like text in cp949 or UTF-8 with Korean tag names, a move
// number per ply, moves in the Korean numeric notation ("79卒78"), and the formations named by
// their pieces ([초차림 "상마상마"], listed from file b to file h as the board is shown).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/variant.h"
#include "notation/encoding.h"
#include "notation/pgn.h"

namespace palace {

// What a record without a [Variant] tag read from a .gib is: the variant answering to this name in
// its `notation: pgn:` list.
inline constexpr const char* GibVariant = "gib";

// `bytes` as UTF-8: as it is when it already is, else decoded from cp949. Throws RecordError when
// it is neither.
std::string gib_text(std::string_view bytes);

// The games of a .gib file, tags renamed to PGN's (Event, Site, Date, Round, White, Black,
// Result); the formation tags are kept for apply_gib_formations. Throws RecordError on bad encoding.
std::vector<GameRecord> read_gib(std::string_view bytes);

// Sets the record's [FEN] from its formation tags, where it has no [FEN]: [ChoFormation "NAME"]
// (the tag named after the side) with one of the variant's formation names, or the .gib's
// [초차림 "상마상마"] spelling the pieces from file b to h in the notation's Korean names. The tag is
// left as [ChoFormation "NAME"]. A formation that is none of the variant's becomes the record's
// problem.
void apply_formation_tags(GameRecord& record, const std::shared_ptr<const Variant>& variant);

}  // namespace palace
