"""Bad rows become rejects with file, row, column, value and reason; nothing is lost."""

import polars as pl

from analyzer import preset, score
from conftest import game


def test_every_row_lands_in_hands_or_rejects():
    df = game(
        [
            {"round": "E1", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Aoki", "han": 1, "fu": 30},
            {"round": "E5", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Aoki", "han": 1, "fu": 30},
            {"round": "E2", "honba": "x", "result": "tsumo", "winner": "Zed", "han": 1, "fu": 30},
            {"round": "E2", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Baba", "han": 2},
            {"round": "E2", "honba": 0, "result": "win", "winner": "Baba"},
            {"round": "E2", "honba": 0, "result": "draw", "riichi": "Nobody"},
            {"round": "E2", "honba": 0, "result": "ron", "winner": "Baba", "loser": "Chiba", "han": 2, "fu": 35},
        ]
    )
    result = score(df, preset("tenhou"))
    assert result.hands.height == 1
    assert result.rows_rejected == 6 and result.rows_read == 7
    reasons = {(r["row"], r["column"]): r for r in result.rejects.iter_rows(named=True)}
    assert reasons[(2, "round")]["value"] == "E5"
    assert reasons[(3, "honba")]["value"] == "x"
    assert reasons[(3, "winner")]["reason"].startswith("not a player")
    assert (4, "loser") in reasons and (4, "fu") in reasons
    assert (5, "result") in reasons
    assert reasons[(6, "riichi")]["value"] == "Nobody"
    assert reasons[(7, "fu")]["value"] == "35"
    assert set(result.rejects.columns) == {"file", "row", "line", "log_file", "log_row", "game_id", "column", "value", "reason"}


def test_players_by_seat_number_and_lists_with_spaces_or_commas(tmp_path):
    csv = tmp_path / "sheet.csv"
    csv.write_text(
        "game_id,round,honba,player_0,player_1,player_2,player_3,result,winner,loser,riichi,tenpai,han,fu\n"
        "g,E1,0,Ann Lee,Bo,Cy,Di,draw,,,\"Ann Lee, Bo\",\"Ann Lee,Bo\",,\n"
        "g,E1,1,Ann Lee,Bo,Cy,Di,ron,3,0,,,1,30\n"
        "g,E2,0,Ann Lee,Bo,Cy,Di,draw,,,Cy Di,Cy Di,,\n",
        encoding="utf-8",
    )
    result = score([csv], preset("tenhou"))
    assert result.rows_rejected == 0
    assert result.hands["delta_0"].to_list() == [1500 - 1000, -300 - 1000, 0 - 1500]
    assert result.hands["delta_3"].to_list() == [-1500, 1000 + 300 + 2000, 1500 - 1000]


def test_csv_and_parquet_mixed_with_missing_columns(tmp_path):
    game(
        [{"round": "E1", "honba": 0, "result": "tsumo", "winner": "Aoki", "han": 2, "fu": 20}]
    ).drop("pao", "tenpai").with_columns(pl.col("riichi")).write_parquet(tmp_path / "a.parquet")
    (tmp_path / "b.csv").write_text(
        "game_id,round,honba,player_0,player_1,player_2,player_3,result,winner,loser,han,fu,notes\n"
        "g1,E1,1,Aoki,Baba,Chiba,Doi,ron,Doi,Baba,1,30,typed late\n",
        encoding="utf-8",
    )
    result = score([tmp_path], preset("tenhou"))
    assert result.rows_rejected == 0
    assert result.hands["notes"].to_list() == [None, "typed late"]  # unknown columns pass through
    assert result.hands["source_file"].str.ends_with(".parquet").to_list() == [True, False]
    assert result.hands["delta_0"].to_list() == [2100, 0]


import pytest  # noqa: E402


@pytest.mark.parametrize(
    "column, value",
    [("honba", "1e309"), ("honba", "inf"), ("honba", "NaN"), ("honba", "1e20"), ("honba", "9223372036854775807"),
     ("honba", "31000000000000000"), ("honba", "101"), ("han", "9000000000000000"), ("han", "101"),
     ("yakuman", "1000"), ("yakuman", "7"), ("fu", "-30"), ("han", "3.5")],
)
def test_out_of_range_or_unreadable_numbers_reject_the_row_only(column, value):
    from conftest import game

    rows = [
        {"round": "E1", "honba": 0, "result": "ron", "winner": "Aoki", "loser": "Baba", "han": 2, "fu": 30},
        {"round": "E2", "honba": 0, "result": "ron", "winner": "Aoki", "loser": "Baba", "han": 2, "fu": 30, column: value},
    ]
    result = score(game(rows), "tenhou")
    assert result.hands.height == 1 and result.rows_rejected == 1
    assert set(result.rejects["column"]) == {column}
    assert set(result.rejects["value"]) == {value}


def test_whole_numbers_are_read_exactly():
    from conftest import game

    big = "9007199254740993"  # 2**53 + 1: a Float64 detour would read 2**53
    result = score(game([{"round": "E1", "honba": "3.0", "result": "draw"}]), "tenhou")
    assert result.hands["honba"].to_list() == [3]
    from analyzer.scoring.validate import parse_int
    import polars as pl

    assert pl.select(parse_int(pl.lit(big))).item() == 2**53 + 1


@pytest.mark.parametrize(
    "row, code",
    [({"result": "tsumo", "winner": "Aoki", "loser": "Baba", "han": 1, "fu": 30}, "loser_ignored"),
     ({"result": "draw", "winner": "Aoki", "tenpai": "Aoki"}, "winner_ignored"),
     ({"result": "nagashi", "winner": "Aoki", "loser": "Baba", "tenpai": "Aoki"}, "loser_ignored")],
)
def test_contradictory_fields_are_flagged_and_checked(row, code):
    from conftest import game

    import analyzer

    frame = game([{"round": "E1", "honba": 0, **row}])
    assert code in score(frame, "tenhou").hands["problems"][0]
    report = analyzer.check(frame, "tenhou")
    assert not report.ok
    assert "plausibility" in report.findings["kind"].to_list()


def test_the_same_rows_given_twice_are_counted_once(tmp_path):
    import polars as pl

    import analyzer

    sheet = pl.read_csv("sample_logs/csv/round1.csv", infer_schema=False)
    sheet.write_csv(tmp_path / "a.csv")
    sheet.write_parquet(tmp_path / "a.parquet")
    once = analyzer.score(tmp_path / "a.csv", "tenhou")
    twice = analyzer.score([tmp_path / "a.csv", tmp_path / "a.parquet"], "tenhou")
    assert twice.hands.height == once.hands.height and twice.rows_rejected == sheet.height
    assert twice.players.drop("player").equals(once.players.drop("player"))
    assert twice.rejects["reason"].str.starts_with("duplicate_row: an exact copy of row").all()
    assert set(twice.rejects["file"]) == {str(tmp_path / "a.parquet")}


def test_only_exact_copies_are_rejected_among_rows_with_the_same_replay_keys():
    # a double ron's two rows share every replay key but differ in their winner; a hand given three times keeps
    # its first row, and both copies name it
    double_ron = [{"round": "E1", "honba": 0, "result": "ron", "winner": w, "loser": "Aoki", "han": 2, "fu": 30}
                  for w in ("Baba", "Chiba")]
    tsumo = {"round": "E2", "honba": 0, "result": "tsumo", "winner": "Baba", "han": 1, "fu": 30}
    result = score(game([*double_ron, tsumo, tsumo, tsumo]), "tenhou")
    assert result.hands.select("round", "winner").rows() == [("E1", "Baba"), ("E1", "Chiba"), ("E2", "Baba")]
    assert result.rejects["row"].to_list() == [4, 5]
    assert result.rejects["reason"].str.starts_with("duplicate_row: an exact copy of row 3 of").all()


def test_typed_parquet_numbers_out_of_range_reject_their_rows(tmp_path):
    import polars as pl

    import analyzer

    rows = pl.read_csv("sample_logs/csv/round1.csv", infer_schema=False).head(4)
    typed = rows.with_columns(
        pl.Series("honba", [0.0, float("inf"), 1e20, float("nan")]),
        pl.Series("han", [2, 9_223_372_036_854_775_807, 3, 2], dtype=pl.Int64),
    )
    typed.write_parquet(tmp_path / "typed.parquet")
    result = analyzer.score(tmp_path / "typed.parquet", "tenhou")
    assert result.rows_read == 4 and result.rows_rejected == 3
    assert set(result.rejects["column"]) == {"honba", "han"}


@pytest.mark.parametrize("text, names", [
    ("Aoki,Baba", ["Aoki", "Baba"]),
    ("Aoki , Baba", ["Aoki", "Baba"]),
    ("Aoki,,Baba, ,", ["Aoki", "Baba"]),
    (" , Aoki", ["Aoki"]),
    ("Bob Smith, Al", ["Bob Smith", "Al"]),
    ("Aoki  Baba\tChiba", ["Aoki", "Baba", "Chiba"]),
    ("\u3000青木\u3000馬場 ", ["青木", "馬場"]),
    ("Aoki\u00a0,\u00a0Baba", ["Aoki", "Baba"]),
    ("", []),
    ("   ", []),
    (",,,", []),
    (None, None),
])
def test_player_lists_written_as_text(text, names):
    import polars as pl

    from analyzer.io.load import split_player_list

    got = pl.DataFrame({"t": [text]}, schema={"t": pl.String}).select(split_player_list(pl.col("t"))).item()
    assert (None if got is None else got.to_list()) == names


def test_columns_written_loosely_score_as_plainly_written_ones():
    """Result, round and numbers written plainly skip their cleaning (analyzer.scoring.validate._plainly_written); one
    loosely written value in a column sends the whole column through it, with the same outcome."""
    from analyzer.scoring.parts import raw_input
    from analyzer.scoring.validate import _plainly_written

    plain_rows = [
        {"round": "E1", "honba": "0", "result": "ron", "winner": "Aoki", "loser": "Baba", "han": "2", "fu": "30"},
        {"round": "E2", "honba": "0", "result": "draw", "tenpai": "Aoki"},
        {"round": "E2", "honba": "1", "result": "tsumo", "winner": "Chiba", "han": "1", "fu": "40", "yakuman": "0"},
        {"round": "S1", "honba": "0", "result": "ron", "winner": "Doi", "loser": "Aoki", "yakuman": "1"},
    ]
    # (row, column, the value written loosely)
    loose = [(3, "round", " s1"), (0, "honba", "0.0"), (0, "result", " RON"), (0, "han", " 2 "), (2, "fu", "40.0"),
             (3, "yakuman", "1 ")]
    plain = game(plain_rows)
    assert _plainly_written(raw_input(plain)) == {"result", "round", "honba", "han", "fu", "yakuman",
                                                  "riichi_by_name", "tenpai_by_name"}
    for row, column, value in loose:
        rows = [dict(r) for r in plain_rows]
        rows[row][column] = value
        frame = game(rows)
        assert column not in _plainly_written(raw_input(frame))
        expected, got = score(plain, "tenhou"), score(frame, "tenhou")
        assert got.rows_rejected == 0
        assert got.hands.drop(column).equals(expected.hands.drop(column))
        assert got.games.equals(expected.games) and got.players.equals(expected.players)


def test_player_lists_naming_seats_by_number_are_read_as_lists_of_names_are():
    """A list that names nobody by seat number skips the tests for seat numbers (analyzer.scoring.validate); one that
    does takes them, and both read the same seats."""
    from analyzer.scoring.parts import raw_input
    from analyzer.scoring.validate import _plainly_written

    def draw(tenpai):
        return game([{"round": "E1", "honba": 0, "result": "draw", "tenpai": tenpai, "riichi": "Aoki"}])

    by_name, by_number = draw("Aoki, Chiba"), draw("0, 2")
    assert "tenpai_by_name" in _plainly_written(raw_input(by_name))
    assert "tenpai_by_name" not in _plainly_written(raw_input(by_number))
    assert "riichi_by_name" in _plainly_written(raw_input(by_number))
    expected, got = score(by_name, "tenhou"), score(by_number, "tenhou")
    assert got.rows_rejected == 0
    assert got.hands.drop("tenpai").equals(expected.hands.drop("tenpai"))
    assert got.players.equals(expected.players)
