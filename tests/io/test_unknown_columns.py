"""Unknown columns before a run (analyzer.io.unknown_columns): a near miss of a known column is a warning (or an
error where the rows need the column it misses), --strict refuses any unknown column, extra columns pass."""

from __future__ import annotations

import warnings

import polars as pl
import pytest
from click.testing import CliRunner

import analyzer
from analyzer import InputError
from analyzer.cli import main
from analyzer.io.unknown_columns import ColumnWarning, check_input_columns

HANDS = """game_id,round,honba,player_0,player_1,player_2,player_3,result,winner,loser,riichi,tenpai,han,fu
G1,E1,0,Aoki,Baba,Chiba,Doi,ron,Baba,Chiba,Baba,,3,40
G1,E2,0,Aoki,Baba,Chiba,Doi,draw,,,,"Aoki,Baba",,
G1,E2,1,Aoki,Baba,Chiba,Doi,tsumo,Doi,,,,4,30
"""
DRAWS = """game_id,round,honba,player_0,player_1,player_2,player_3,result,winner,loser,tenpai,hann
G1,E1,0,Aoki,Baba,Chiba,Doi,draw,,,"Aoki,Baba",
"""
SHEET = """game_id,player,final_score,chombo
T1,Ana,41000,0
T1,Ben,29000,0
T1,Cho,20000,0
T1,Dai,30000,0
"""


def _write(tmp_path, text: str, name: str = "hands.csv", rename: dict[str, str] | None = None, extra=None):
    header, rest = text.split("\n", 1)
    for old, new in (rename or {}).items():
        header = ",".join(new if c == old else c for c in header.split(","))
    if extra:
        header += "," + extra
        rest = "\n".join(line + ",x" if line else line for line in rest.split("\n"))
    path = tmp_path / name
    path.write_text(header + "\n" + rest, encoding="utf-8")
    return path


def _warnings(data, **options) -> list[ColumnWarning]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_input_columns(data, **options)
    return [w.message for w in caught if issubclass(w.category, ColumnWarning)]


def test_the_issue_example_richi_is_named_and_changes_nothing_else(tmp_path):
    path = _write(tmp_path, HANDS, rename={"riichi": "richi"})
    with pytest.warns(ColumnWarning) as caught:
        result = analyzer.score(path)
    assert [str(w.message) for w in caught if w.category is ColumnWarning] == [
        f"column 'richi' is not used — did you mean 'riichi'? ({path})"]
    assert result.rows_rejected == 0  # a warning only: the run is what it was


@pytest.mark.parametrize("extra", ["notes", "table_name", "comment", "Notes", "venue", "url", "rate", "season"])
def test_extra_columns_pass_without_a_word(tmp_path, extra):
    path = _write(tmp_path, HANDS, extra=extra)
    assert _warnings(path) == []
    with warnings.catch_warnings():
        warnings.simplefilter("error", ColumnWarning)
        assert analyzer.score(path).rows_rejected == 0


def test_a_near_miss_beside_the_column_it_misses_is_a_column_of_its_own(tmp_path):
    path = _write(tmp_path, HANDS, extra="richi")
    assert _warnings(path) == []


@pytest.mark.parametrize(("typed", "meant"), [("hann", "han"), ("fuu", "fu"), ("Han ", None)])
def test_a_column_win_rows_need_is_named_up_front(tmp_path, typed, meant):
    path = _write(tmp_path, HANDS, rename={meant or "han": typed})
    if meant is None:  # case and spaces are set aside: read as han
        assert analyzer.score(path).rows_rejected == 0
        return
    with pytest.raises(InputError) as error:
        analyzer.score(path)
    assert str(error.value) == f"no column {meant!r} in {path} — did you mean {typed!r}? (its win rows need it)"


def test_without_win_rows_a_near_miss_of_han_is_a_warning(tmp_path):
    path = _write(tmp_path, DRAWS)
    assert [str(w) for w in _warnings(path)] == [f"column 'hann' is not used — did you mean 'han'? ({path})"]


def test_tiles_give_han_and_fu(tmp_path):
    """With a hand column the rows' han and fu come from the tiles: a near miss of han is only a warning."""
    path = _write(tmp_path, HANDS, rename={"han": "hann"}, extra="hand")
    assert [w.meant for w in _warnings(path)] == ["han"]


def test_a_required_column_near_miss_names_the_misspelling(tmp_path):
    path = _write(tmp_path, HANDS, rename={"honba": "hnoba"})
    with pytest.raises(InputError, match="^no column 'honba' in .*hands.csv — did you mean 'hnoba'\\?$"):
        analyzer.score(path)


@pytest.mark.parametrize(("typed", "meant", "error"), [
    ("chombos", "chombo", False),
    ("penality", "penalty", False),
    ("finalscore", "final_score", True),  # then it is still a sheet: named as one
    ("Final Score", "final_score", True),
    ("palyer", "player", True),
])
def test_game_level_sheets(tmp_path, typed, meant, error):
    original = "chombo" if meant == "chombo" else meant
    text = SHEET if meant != "penalty" else SHEET.replace("chombo", "penalty")
    path = _write(tmp_path, text, "sheet.csv", rename={original: typed})
    if error:
        with pytest.raises(InputError) as caught:
            check_input_columns(path)
        assert str(caught.value) == (f"no column {meant!r} in {path} — did you mean {typed!r}? "
                                     "(read as a game-level sheet)")
    else:
        assert [(w.column, w.meant) for w in _warnings(path)] == [(typed, meant)]


def test_a_hand_records_player_column_is_not_a_sheets(tmp_path):
    """``seat`` and ``player`` are read from sheets only: a hand record's ``seats`` is simply extra."""
    assert _warnings(_write(tmp_path, HANDS, extra="seats")) == []


def test_one_warning_per_column_for_many_files(tmp_path):
    paths = [_write(tmp_path, HANDS.replace("G1", f"G{i}"), f"h{i}.csv", rename={"riichi": "richi"})
             for i in range(3)]
    found = _warnings(paths)
    assert len(found) == 1
    assert found[0].where == [str(p) for p in paths]
    assert str(found[0]).endswith(f"({paths[0]} and 2 more file(s))")


def test_a_frame(tmp_path):
    frame = pl.read_csv(_write(tmp_path, HANDS, rename={"riichi": "richi"}), infer_schema=False)
    assert [str(w) for w in _warnings(frame)] == ["column 'richi' is not used — did you mean 'riichi'? (the frame)"]
    loaded = analyzer.load(_write(tmp_path, HANDS, "two.csv", rename={"riichi": "richi"}))
    assert [w.meant for w in _warnings(loaded)] == ["riichi"]


def test_strict_refuses_any_unknown_column(tmp_path):
    path = _write(tmp_path, HANDS, extra="notes")
    with pytest.raises(InputError) as error:
        analyzer.score(path, strict=True)
    assert str(error.value) == (f"column 'notes' of {path} is not one analyzer reads (--strict refuses unknown "
                                "columns)")
    richi = _write(tmp_path, HANDS, "r.csv", rename={"riichi": "richi"}, extra="notes")
    with pytest.raises(InputError, match="column 'richi' .* did you mean 'riichi'\\? .*; also 'notes'\\)$"):
        analyzer.check(richi, strict=True)


def test_strict_takes_what_analyzer_writes(tmp_path):
    """A hands output scored again, and columns the importers write, are no unknown columns."""
    path = _write(tmp_path, HANDS)
    first = analyzer.score(path, strict=True)
    again = tmp_path / "hands.parquet"
    first.hands.write_parquet(again)
    assert analyzer.score(again, strict=True).hands.height == first.hands.height
    imported = tmp_path / "imported.parquet"
    pl.read_csv(path).with_columns(pl.lit(3).alias("dan_0"), pl.lit("Tenhou").alias("room"),
                                   pl.lit("log.xml").alias("log_file")).write_parquet(imported)
    assert analyzer.score(imported, strict=True).rows_rejected == 0


def _cli(args: list[str]):
    return CliRunner().invoke(main, args)


def test_cli_prints_the_warning_before_the_run(tmp_path):
    path = _write(tmp_path, HANDS, rename={"riichi": "richi"})
    result = _cli(["score", str(path), "-o", str(tmp_path / "out"), "--top", "0"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"warning: column 'richi' is not used — did you mean 'riichi'? ({path})"
    assert lines.count(lines[0]) == 1


@pytest.mark.parametrize("command", [["score", "-o", "OUT"], ["check"], ["report", "-o", "OUT.html"]])
def test_cli_strict(tmp_path, command):
    path = _write(tmp_path, HANDS, extra="notes")
    args = [a.replace("OUT", str(tmp_path / "out")) for a in command]
    result = _cli([args[0], str(path), *args[1:], "--strict"])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        f"error: column 'notes' of {path} is not one analyzer reads (--strict refuses unknown columns)"]
    assert _cli([args[0], str(path), *args[1:]]).exit_code == 0


def test_report_names_the_file_once(tmp_path):
    path = _write(tmp_path, HANDS, rename={"riichi": "richi"})
    result = _cli(["report", str(path), "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output
    warned = [line for line in result.output.splitlines() if line.startswith("warning:")]
    assert warned == [f"warning: column 'richi' is not used — did you mean 'riichi'? ({path})"]
