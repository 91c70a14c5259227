"""The Python module `palace`: pyffish's functions, the Pythonic layer, records and threads.
Run by tests/python/run_pytest.py (the ctest python/pytest) with the build folder on the path."""
import os
import threading
import time

import pytest

import palace

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
XIANGQI = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
CHESS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
JANGGI_WIRE = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]


# ---- pyffish's functions ----

def test_variants_are_the_wire_names():
    names = palace.variants()
    assert {"xiangqi", "janggi", "chess", "shogi", "crazyhouse"} <= set(names)
    assert names == sorted(names)


def test_start_fen_is_the_wire_fen():
    assert palace.start_fen("xiangqi") == XIANGQI
    assert palace.start_fen("chess") == CHESS


def test_legal_moves_from_the_readme():
    moves = palace.legal_moves("xiangqi", palace.start_fen("xiangqi"), [])
    assert len(moves) == 44
    assert "h3h10" in moves and "b1c3" in moves and "b1d2" not in moves


def test_legal_moves_after_moves_and_a_fen():
    assert "i10h10" in palace.legal_moves("xiangqi", XIANGQI, ["h3h10"])
    assert palace.legal_moves("chess", "k7/8/8/8/8/8/8/K6r w - - 0 1", []) == ["a1a2", "a1b2"]


def test_janggi_moves_are_mirrored_on_the_wire():
    # The reference engine numbers Janggi ranks from Cho's side: Cho's horse b1 goes to c3.
    moves = palace.legal_moves("janggi", JANGGI_WIRE, [])
    assert "b1c3" in moves and "b1a3" in moves


def test_get_fen_after_moves():
    assert palace.get_fen("chess", CHESS, ["e2e4", "c7c5", "g1f3"]) == \
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"


def test_get_fen_as_sfen_and_with_an_empty_hand():
    # pyffish's sfen flag; and the empty hand the reference writes after a Xiangqi board.
    shogi = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w - - 0 1"
    assert palace.get_fen("shogi", shogi, [], False, True) == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    assert palace.get_fen("xiangqi", XIANGQI.replace(" w ", "[] w "), []) == XIANGQI


def test_get_san_in_each_notation():
    assert palace.get_san("chess", CHESS, "g1f3") == "Nf3"
    assert palace.get_san("xiangqi", XIANGQI, "h3e3", False, palace.NOTATION_XIANGQI_WXF) == "C2=5"
    assert palace.get_san("xiangqi", XIANGQI, "h3e3", notation="chinese") == "炮二平五"
    # pyffish's default is SAN; a mirrored board's SAN names the wire's squares.
    assert palace.get_san("xiangqi", XIANGQI, "h1g3") == "Hg3"
    assert palace.get_san("janggi", "1b1aa2b1/5k3/3ncn3/1pp1pp3/5r2p/9/P1PPB1PPB/2N1CCN1c/9/R2AKAR2 w - - 19 17",
                          "d1e2", False, palace.NOTATION_SAN) == "Ade2"
    assert palace.get_san("janggi", JANGGI_WIRE, "b1c3", False, palace.NOTATION_JANGGI) == "H02-83"
    assert palace.get_san_moves("chess", CHESS, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]) == \
        ["e4", "e5", "Nf3", "Nc6", "Bb5"]


def test_check_capture_and_result():
    assert palace.gives_check("chess", CHESS, FOOLS_MATE)
    assert not palace.gives_check("chess", CHESS, FOOLS_MATE[:3])
    assert palace.is_capture("chess", CHESS, ["e2e4", "d7d5"], "e4d5")
    assert not palace.is_capture("chess", CHESS, ["e2e4", "d7d5"], "e4e5")
    # White to move has been mated.
    assert palace.game_result("chess", CHESS, FOOLS_MATE) == -palace.VALUE_MATE
    assert palace.game_result("chess", CHESS, []) == 0


def test_optional_game_end_is_the_claim():
    knights = ["g1f3", "g8f6", "f3g1", "f6g8"]
    assert palace.is_optional_game_end("chess", CHESS, knights) == (False, 0)
    assert palace.is_optional_game_end("chess", CHESS, knights * 2) == (True, 0)
    assert palace.is_immediate_game_end("chess", CHESS, knights * 2) == (False, 0)


def test_insufficient_material_per_side():
    assert palace.has_insufficient_material("chess", "k7/8/8/8/8/8/8/K7 w - - 0 1", []) == (True, True)
    assert palace.has_insufficient_material("chess", "k7/r7/8/8/8/8/8/K7 w - - 0 1", []) == (True, False)
    assert palace.has_insufficient_material("chess", CHESS, []) == (False, False)


def test_validate_fen():
    assert palace.validate_fen(CHESS, "chess") == palace.FEN_OK
    assert palace.validate_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR g KQkq - 0 1", "chess") == -6  # side to move
    assert palace.validate_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNH w KQkq - 0 1", "chess") == palace.FEN_INVALID_CHAR
    assert palace.fen_error(CHESS, "chess") is None
    assert "side to move" in palace.fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR g KQkq - 0 1", "chess")


def test_hands_after_the_board_as_one_more_field():
    # lichess writes crazyhouse's hands as a ninth `/` field; pyffish 0.0.89 reads it and answers so
    lichess = "r7/5pkp/b1pPpNpn/p2pP3/N7/BP6/KP3PPP/r3q~3/RQNRPQBb w - - 2 51"
    assert palace.validate_fen(lichess, "crazyhouse") == palace.FEN_OK
    assert palace.get_fen("crazyhouse", lichess, []) == "r7/5pkp/b1pPpNpn/p2pP3/N7/BP6/KP3PPP/r3q~3[QQRRBNPb] w - - 2 51"
    assert palace.validate_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", "chess") == -8  # no hands


def test_hands_full_of_queens_fit_the_move_list():
    # fourteen queens in each hand could make 1,601 moves in one position: past the 1,024 moves the
    # list held until 2026-12-05, within the 8,192 it holds now (pychess-variants' sanitize_fen test)
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QQQQQQQQQQQQQQqqqqqqqqqqqqqq] w KQkq - 0 1"
    assert palace.validate_fen(fen, "crazyhouse") == palace.FEN_OK
    assert len(palace.legal_moves("crazyhouse", fen, [])) == 20 + 32


def test_gives_check_reads_a_position_no_game_reaches():
    # pyffish answers for the side to move even where the other side stands in check (pychess-variants
    # asks so to refuse such a FEN)
    assert palace.gives_check("chess", "4k3/8/8/8/8/8/8/r3K3 b - - 0 1", []) is False
    assert palace.gives_check("chess", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", []) is True


def test_bad_input_is_one_clear_error():
    with pytest.raises(palace.Error, match='unknown variant "nosuch"'):
        palace.legal_moves("nosuch", "", [])
    with pytest.raises(palace.IllegalMoveError, match='move 2: "e2e4" is not a legal move here'):
        palace.get_fen("chess", CHESS, ["e2e4", "e2e4"])
    with pytest.raises(ValueError):  # palace.Error is a ValueError
        palace.get_fen("chess", "not a fen", [])
    with pytest.raises(palace.Error, match="notation 3"):
        palace.get_san("chess", CHESS, "e2e4", False, 3)


def test_load_variant_config_from_yaml_text():
    # A Janggi formation changed in one line, imported by a name relative to variants/.
    name = palace.load_variant_config(
        "import: [janggi.yaml]\nuci: {variant: janggiouter, mirror_ranks: true, pass: royal_point}\n"
        "setup: {han: {formation: {name: outer-elephant}}}\n")
    assert name == "janggiouter"
    assert name in palace.variants()
    assert palace.start_fen(name) != palace.start_fen("janggitraditional")
    assert palace.start_fen(name).split("/")[0] == "rbna1anbr"
    with pytest.raises(palace.Error):
        palace.load_variant_config("pieces: [")


# ---- the rest of pyffish's names, so that pychess-variants imports the module as pyffish ----

def test_every_name_of_pyffish_is_here():
    pyffish_names = {
        "version", "info", "variants", "set_option", "load_variant_config", "start_fen", "two_boards",
        "captures_to_hand", "get_san", "get_san_moves", "legal_moves", "get_fen", "gives_check", "is_capture",
        "piece_to_partner", "game_result", "is_immediate_game_end", "is_optional_game_end",
        "has_insufficient_material", "validate_fen", "get_fog_fen", "error", "VALUE_MATE", "VALUE_DRAW",
        "NOTATION_DEFAULT", "NOTATION_SAN", "NOTATION_LAN", "NOTATION_SHOGI_HOSKING", "NOTATION_SHOGI_HODGES",
        "NOTATION_SHOGI_HODGES_NUMBER", "NOTATION_JANGGI", "NOTATION_XIANGQI_WXF", "NOTATION_THAI_SAN",
        "NOTATION_THAI_LAN", "FEN_OK", "FEN_INVALID_PROMOTED_PIECE"}
    assert pyffish_names <= set(dir(palace))
    assert (palace.NOTATION_SHOGI_HODGES_NUMBER, palace.NOTATION_THAI_LAN, palace.FEN_INVALID_PROMOTED_PIECE) == (5, 9, -12)
    assert palace.version() == (0, 0, 89)
    assert issubclass(palace.error, ValueError)


def test_lan_writes_every_origin():
    assert palace.get_san_moves("chess", CHESS, ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3"], False, palace.NOTATION_LAN) == \
        ["e2-e4", "d7-d5", "e4xd5", "Qd8xd5", "Nb1-c3"]
    assert palace.get_san("chess", CHESS, "g1f3", False, palace.NOTATION_LAN) == "Ng1-f3"
    assert palace.get_san("chess", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "h1h8", False, palace.NOTATION_LAN) == "Rh1-h8+"


def test_fog_of_war_hides_what_the_side_to_move_cannot_reach():
    # The reference's test.py expectations (its variant fogofwar has chess's moves).
    assert palace.get_fog_fen(CHESS, "chess") == "********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    fen = "rnbqkbnr/p1p2ppp/8/Pp1pp3/4P3/8/1PPP1PPP/RNBQKBNR w KQkq b6 0 1"
    assert palace.get_fog_fen(fen, "chess") == "********/********/2******/Pp*p***1/4P3/4*3/1PPP1PPP/RNBQKBNR w KQkq b6 0 1"


def test_get_fen_writes_the_en_passant_point_only_where_it_can_be_taken():
    # As the reference writes it (Fairy-Stockfish c19b5f6, `position startpos moves ...` then `d`).
    assert palace.get_fen("chess", CHESS, ["e2e4"]) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert palace.get_fen("chess", CHESS, ["e2e4", "d7d5", "e4e5", "f7f5"]) == \
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"


def test_the_chess960_flag_plays_the_games_chess960_form():
    # As the reference answers (Fairy-Stockfish c19b5f6's test.py and `go perft 1`).
    assert len(palace.legal_moves("chess", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w FHfh - 0 1", [], True)) == 20
    assert palace.get_fen("chess", CHESS, [], True) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    assert palace.get_fen("chess", CHESS, []) == CHESS
    assert palace.start_fen("fischerandom") == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    moves = ["d2d4", "f7f5", "e1f3", "h8g6", "h1g3", "c7c6", "c2c3", "e7e6", "b1d3", "d7d5", "d1c2", "b8d6",
             "e2e3", "d8d7", "c1a1"]
    assert palace.get_fen("chess", "rbkqnrbn/pppppppp/8/8/8/8/PPPPPPPP/RBKQNRBN w AFaf - 0 1", moves, True) == \
        "r1k1nrb1/pp1q2pp/2pbp1n1/3p1p2/3P4/2PBPNN1/PPQ2PPP/2KR1RB1 b fa - 2 8"
    assert not palace.is_capture("chess", "bqrbkrnn/pppppppp/8/8/8/8/PPPPPPPP/BQRBKRNN w CFcf - 0 1",
                                 ["g1f3", "h8g6"], "e1f1", True)
    assert palace.validate_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", "chess", True) == palace.FEN_OK
    with pytest.raises(palace.error, match=r'^"atomic" has no Chess960 form in Palace \(its file names none under uci.chess960\)$'):
        palace.legal_moves("atomic", "7k/8/8/8/8/8/2PP4/1RK4q w Q - 0 1", [], True)


def test_piece_to_partner_names_the_piece_taken():
    start = palace.start_fen("crazyhouse")
    assert palace.piece_to_partner("crazyhouse", start, ["e2e4", "d7d5", "e4d5"]) == "p"
    assert palace.piece_to_partner("crazyhouse", start, ["e2e4"]) == ""
    assert not palace.two_boards("crazyhouse")
    assert palace.captures_to_hand("crazyhouse") and palace.captures_to_hand("shogi")
    assert not palace.captures_to_hand("chess")


def test_set_option_loads_a_yaml_variant_path_and_an_ini_warning_of_each_refused_section(tmp_path):
    yaml_file = tmp_path / "house.yaml"
    yaml_file.write_text("language: 1\nimport: [" + os.path.join(SOURCE, "variants", "chess.yaml") +
                         "]\nname: house\nuci: {variant: housechess}\n")
    palace.set_option("VariantPath", str(yaml_file))
    assert "housechess" in palace.variants()
    ini = tmp_path / "variants.ini"
    ini.write_text("# a house rule and a refused one\n[nocastle:chess]\ncastling = false\n[duck:chess]\nwallingRule = duck\n")
    with pytest.warns(UserWarning, match=r"^variants\.ini:5: \[duck\] wallingRule = duck: walls are not a construct of Palace$"):
        palace.set_option("VariantPath", str(ini))
    assert "nocastle" in palace.variants() and "duck" not in palace.variants()
    assert len(palace.legal_moves("nocastle", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", [])) == 24
    palace.set_option("Threads", 2)
    with pytest.raises(palace.error, match='No such option "Colour"'):
        palace.set_option("Colour", "red")
    assert palace.load_variant_config("[nocastle2:chess]\ncastling = false\n") == ["nocastle2"]
    with pytest.raises(palace.Error, match=r'variants\.ini:2: "oops": a line is a section header or key = value'):
        palace.load_variant_config("[broken:chess]\noops\n")
    with pytest.raises(palace.error, match=r'missing\.yaml: cannot open file$'):
        palace.set_option("VariantPath", str(tmp_path / "missing.yaml"))
    assert "housechess" in palace.variants()


def test_a_variants_ini_is_told_from_yaml_by_its_sections():
    assert palace.is_variants_ini("# comment\n[shogun:crazyhouse]\nstartFen = 8/8 w - - 0 1\n")
    assert palace.is_variants_ini("[tictactoe]\nmaxRank = 3\n")
    assert not palace.is_variants_ini("language: 1\nimport: [chess.yaml]\nname: house\n")
    assert not palace.is_variants_ini("language: 1\nmoves: [[1, 0]]\n")


def test_a_plus_before_a_piece_without_promotion_is_pyffish_promoted_piece_code():
    assert palace.validate_fen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG+KGSNL[-] w - - 0 1", "shogi") == -12
    assert palace.validate_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/+RNBQKBNR w KQkq - 0 1", "chess") == -10



# ---- The Pythonic layer ----

def test_game_push_pop_and_legal_moves():
    game = palace.Game(palace.Variant.load(os.path.join(SOURCE, "variants/xiangqi.yaml")))
    assert game.turn == "red"
    assert len(game.legal_moves()) == 44
    game.push("h3e3")
    game.push("H8+7")  # any notation: WXF here
    assert game.moves == ["h3e3", "h10g8"]
    assert game.pop() == "h10g8"
    assert game.turn == "black"
    with pytest.raises(IndexError):
        palace.Game("xiangqi").pop()


def test_illegal_moves_are_explained():
    game = palace.Game("xiangqi")
    assert game.explain("b1c3") == ""
    assert game.explain("b1d2") == "horse on b1 is blocked at c1"
    assert game.explain("e1e3") == "a general cannot move from e1 to e3"
    with pytest.raises(palace.IllegalMoveError) as refused:
        game.push("b1d2")
    assert game.explain("b1d2") in str(refused.value)
    assert game.moves == []  # refused moves change nothing


def test_outcome_names_termination_and_winner():
    game = palace.Game("chess")
    for move in FOOLS_MATE:
        assert game.outcome() is None
        game.push(move)
    outcome = game.outcome()
    assert (outcome.termination, outcome.winner, outcome.result) == ("checkmate", "black", "0-1")
    assert game.legal_moves() == []


def test_a_claimable_draw_is_an_outcome_only_when_claimed():
    game = palace.Game("chess")
    for move in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        game.push(move)
    assert game.outcome() is None
    assert game.claimable == "repetition"
    assert game.outcome(claim_draw=True).termination == "repetition"
    assert game.claim_draw()
    assert game.outcome().winner is None and game.outcome().claimed


def test_perft_matches_the_known_counts():
    assert palace.Game("chess").perft(3) == 8902
    assert palace.Game("xiangqi").perft(2) == 1920
    assert palace.perft("chess", CHESS, ["e2e4"], 1) == 20


def test_search_returns_a_legal_move():
    game = palace.Game("xiangqi")
    result = game.search(depth=2, hash_mb=1)
    assert result.move in game.legal_moves()
    assert result.depth == 2 and result.pv[0] == result.move
    with pytest.raises(palace.Error):
        game.search()


def test_threads_share_variants_and_agree():
    # Every thread counts on its own Game of the one compiled variant, the GIL released meanwhile.
    results = {}

    def count(i):
        results[i] = (palace.Game("chess").perft(3), len(palace.legal_moves("xiangqi", XIANGQI, [])))

    threads = [threading.Thread(target=count, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: (8902, 44) for i in range(4)}


def test_perft_lets_other_threads_run():
    # Held, the GIL would stop this thread until the count is done; released, it keeps running.
    game = palace.Game("chess")
    counted = []
    worker = threading.Thread(target=lambda: counted.append(game.perft(5)))
    worker.start()
    turns = 0
    while worker.is_alive():
        turns += 1
        time.sleep(0.005)
    worker.join()
    assert counted == [4865609]
    assert turns >= 3


def test_read_records_replays_each_game():
    records = list(palace.read_records(os.path.join(SOURCE, "tests/records/chess-immortal-game.pgn")))
    assert len(records) == 1
    record = records[0]
    assert record.good
    assert record.tag("white") == "Adolf Anderssen"
    assert record.game.outcome().termination == "checkmate"
    assert len(record.game.moves) == len(record.moves)
    assert record.notes == []
    with pytest.raises(palace.Error):
        palace.read_records(os.path.join(SOURCE, "no/such/file.pgn"))


def test_read_records_notes_the_rulings_a_record_went_past():
    path = os.path.join(SOURCE, "tests/records/xiangqi-yan-liu-1999-chase.pgn")
    record = next(iter(palace.read_records(path)))
    assert record.good
    assert len(record.game.moves) == len(record.moves) == 58
    assert record.notes == [
        'move 28 (red) "h6g6": black wins: perpetual chase (Red has chased the cannon on g9 with every move for 3 cycles, '
        "was bound to vary and did not); the game went on"
    ]


def test_records_are_written_in_each_format_and_read_back(tmp_path):
    kif = next(iter(palace.read_records(os.path.join(SOURCE, "tests/records/shogi-jt-2014.kif"))))
    assert kif.good
    for format, suffix in (("csa", ".csa"), ("ki2", ".ki2"), ("pgn", ".pgn")):
        path = tmp_path / ("again" + suffix)
        path.write_text(kif.write(format), encoding="utf-8")
        again = next(iter(palace.read_records(str(path))))
        assert again.good, (format, again.verdict)
        assert again.game.moves == kif.game.moves, format
    xiangqi = next(iter(palace.read_records(os.path.join(SOURCE, "tests/records/xiangqi-li-wang-2004.pgn"))))
    assert "1. C2=4 C2=6 2. H2+3 H8+9" in xiangqi.write("pgn", "wxf")
    with pytest.raises(palace.Error, match="unknown record format"):
        kif.write("sgf")


def test_variants_by_name_file_and_fen():
    assert palace.Variant.named("janggi-kakao").uci_name == "janggimodern"
    variant = palace.Variant.load(os.path.join(SOURCE, "variants/chess.yaml"))
    assert (variant.name, variant.sides) == ("chess", ["white", "black"])
    assert palace.load_variant_config(os.path.join(SOURCE, "variants/xiangqi.yaml")) == "xiangqi"
    game = palace.Game(variant, fen="k7/8/8/8/8/8/8/K6r w - - 0 1")
    assert game.legal_moves() == ["a1a2", "a1b2"]
    assert game.is_check()  # the rook on h1
    with pytest.raises(palace.Error, match="FEN"):
        palace.Game(variant, fen="8/8 w")


# ---- The fourth audit's inputs (tests/repro/audit-4/py_lows.py) ----

def refusal(call):
    """The exception `call` raises, as its type's name and its one line."""
    try:
        call()
    except Exception as e:  # noqa: BLE001 - the type is what is asserted
        return type(e).__name__, str(e)
    return None


def test_an_alias_inside_its_own_anchor_is_refused():
    assert refusal(lambda: palace.load_variant_config('a: &x [*x]')) == (
        "Error", "variant.yaml:1:8: a[0]: an alias refers to the value that holds it")


def test_a_game_of_no_variant_is_a_type_error():
    assert refusal(lambda: palace.Game(None)) == (
        "TypeError", "expected a palace.Variant or a variant's name, got NoneType")
    assert refusal(lambda: palace.Game(7)) == ("TypeError", "expected a palace.Variant or a variant's name, got int")


def test_negative_limits_are_refused_alike():
    assert refusal(lambda: palace.perft("chess", CHESS, [], -1)) == ("Error", "perft depth must be 0 or more")
    assert refusal(lambda: palace.Game("chess").perft(-5)) == ("Error", "perft depth must be 0 or more")
    assert refusal(lambda: palace.Game("chess").search(depth=-1)) == ("Error", "search depth must be 0 or more, got -1")
    # It searched for ever, its GIL released.
    assert refusal(lambda: palace.Game("chess").search(movetime=-5)) == (
        "Error", "search movetime must be 0 or more, got -5")
    assert refusal(lambda: palace.Game("chess").search()) == ("Error", "search needs a depth, nodes or movetime")


def test_a_path_to_no_file_is_refused_as_such():
    assert refusal(lambda: palace.load_variant_config("/tmp")) == ("Error", "/tmp: cannot open file: it is a directory")
    assert refusal(lambda: palace.load_variant_config("/dev/zero")) == (
        "Error", "/dev/zero: cannot open file: not a regular file")


def test_the_half_move_clock_saturates():
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 16384  # 65,536 plies
    assert palace.get_fen("chess", CHESS, shuffle).split()[4] == "65535"
    assert palace.is_optional_game_end("chess", CHESS, shuffle)[0] is True
    assert palace.is_optional_game_end("chess", CHESS, shuffle) == palace.is_optional_game_end("chess", CHESS, shuffle[:-4])


def test_a_text_importing_a_file_twice_is_refused():
    text = "import: [chess.yaml, chess.yaml]\nname: twice\n"
    kind, message = refusal(lambda: palace.load_variant_config(text))
    assert kind == "Error" and message.endswith(':1:22: import[1]: "chess.yaml" is imported twice'), message
