// The bodies of the fuzz targets: each feeds one input to one of Palace's readers. They are shared
// by the libFuzzer entry points (targets/, built with PALACE_FUZZ) and by the regression test that
// replays saved inputs in the normal build. palace::Error is the answer bad input deserves and is
// swallowed; any other exception escapes, and a crash, leak or hang is a finding (tests/fuzz/README.md).
#pragma once

#include <array>
#include <string_view>

namespace palace::fuzz {

// Rule files: the input is the variant file, then files it may import, separated by lines `#@@`.
// They are written as work/fuzz0.yaml, work/fuzz1.yaml, ... in a scratch folder that also holds
// the repository's rules/, scripts/ and variants/, so `../rules/chess/board.yaml` resolves. Each
// file is also read as text alone, as a draft is (anchors and aliases without imports).
void rule_files(std::string_view input);
// A Lua script: named by a Janggi variant for each hook whose function it defines, then loaded
// into a bare LuaHost with each of its global functions called once.
void hook_script(std::string_view input);
// A FEN, set in every variant of variants/, then legal moves and the game's state there.
void fen(std::string_view input);
// Move texts, one per line or space: the first byte chooses the variant; "undo" undoes.
void move_text(std::string_view input);
// A rule test script (tests/rules/README.md), written as tests/rules/fuzz.yaml of the scratch folder.
void rule_script(std::string_view input);
// A game record: the first byte, modulo 4, reads the rest as PGN, KIF, CSA or .gib; each game is
// replayed in the variant its tags name (variants/), and a whole one rewritten as PGN and read back.
void record(std::string_view input);
// A UCI session, one command a line, to an engine playing variants/janggi.yaml. Each `go` is
// followed by `stop`, and each line by `isready`, which must still be answered by `readyok`;
// `go perft` deeper than 3 and a Hash above 64 MB are lowered, being slow or large, not wrong.
void uci(std::string_view input);
// HTTP requests to a `palace serve` API on a local port, kept up for the run. Requests are
// separated by lines `#@@`; each is a line `METHOD PATH`, then its body. `{id}` in a path stands
// for the last game the server created. Every answer must be JSON with a status below 500.
void http(std::string_view input);

// The HTTP API answered in-process (server::Server::answer, no socket), uploads included. Requests
// are separated by lines `#@@`. One that starts `RAW` is the rest of its text sent as it is (a
// request line, headers, CRLFs and all); `UPLOAD` posts the rest as an uploaded variant, its YAML
// then, after a line `#--`, its script s.lua; any other is a line `METHOD PATH` and a JSON body,
// sent with this server's Host and Content-Type: application/json. `{id}` in a path stands for the
// last game or variant created. Every answer must be a whole HTTP answer below 500, its body JSON.
void api(std::string_view input);
// A hook answering fuzzer-chosen values: the first byte picks the hook (add_moves, allow_move or
// after_move, given to the knights of chess), the rest is read as a small program that builds the
// value each call answers, tables shared or cyclic included. Legal moves, a move and a perft of 2
// follow; a palace::Error is the right answer to a value the rules cannot take.
void hook_answers(std::string_view input);

// Requests sent on sockets in pieces, to a `palace serve` kept up for the run whose requests must
// arrive whole within 300 ms: pieces are separated by lines `#@@`; a piece's first byte picks its
// connection (modulo 3) and a pause before it (0 to 120 ms), the rest is sent as it is, `{host}`
// standing for the server's address; a piece `close` closes its connection mid-request. Every
// connection is then half-closed and read to its end: each answer must be a whole HTTP answer below
// 500 (503, a cap, excepted), and a plain request on a new connection must still be answered 200.
// The connection gate's reading of a request (server::scan_request) also reads the input and each
// piece.
void http_wire(std::string_view input);

struct Target {
  const char* name;  // its folder in tests/fuzz/regressions/ and its executable fuzz_NAME
  void (*run)(std::string_view input);
};
inline constexpr std::array<Target, 11> targets{{{"rule_files", rule_files},
                                                {"hook_script", hook_script},
                                                {"fen", fen},
                                                {"move_text", move_text},
                                                {"rule_script", rule_script},
                                                {"record", record},
                                                {"uci", uci},
                                                {"http", http},
                                                {"api", api},
                                                {"hook_answers", hook_answers},
                                                {"http_wire", http_wire}}};

}  // namespace palace::fuzz
