// Kakao Janggi's .gib records: PGN-like text in cp949 or UTF-8 with Korean tag names, a move
// number per ply, moves in the Korean numeric notation ("79卒78", the piece taken after the
// destination: "66馬78卒"), and the formations named by their pieces ([초차림 "상마상마"], listed
// from file b to file h as the board is shown).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/variant.h"
#include "notation/encoding.h"
#include "notation/pgn.h"
#include "notation/replay.h"

namespace palace {

// What a record without a [Variant] tag read from a .gib is: the variant answering to this name in
// its `notation: pgn:` list.
inline constexpr const char* GibVariant = "gib";

// `bytes` as UTF-8: as it is when it already is, else decoded from cp949; the padding some writers
// leave (DOS's end-of-file byte, 0xff) is dropped. Throws RecordError when it is neither.
std::string gib_text(std::string_view bytes);

// The games of a .gib file, tags renamed to PGN's (Event, Site, Date, Round, White, Black); the
// result words ([대국결과 "한 시간승"]) give the result and the record's `ending`; the formation
// tags are kept for apply_formation_tags. Throws RecordError on bad encoding.
std::vector<GameRecord> read_gib(std::string_view bytes);

// Sets the record's [FEN] from its formation tags, where it has no [FEN]: [ChoFormation "NAME"]
// (the tag named after the side) with one of the variant's formation names, or the .gib's
// [초차림 "상마상마"] spelling the pieces from file b to h in the notation's Korean names. The tag is
// left as [ChoFormation "NAME"]. Throws RecordError for a formation that is none of the variant's.
void apply_formation_tags(GameRecord& record, const std::shared_ptr<const Variant>& variant);

// `record`'s game as a .gib: its tags in Korean, the formations it starts from, one numbered move a
// ply in the Korean notation with the piece taken and the check word, as Kakao writes them. A start
// that no pair of formations gives is kept as a [FEN] tag.
std::string write_gib(const GameRecord& record, const Game& game);

}  // namespace palace
