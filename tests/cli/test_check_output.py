"""What `check` shows: mismatches first, most serious kind first, with the player's name at a seat; notes as one
line of counts unless --notes; the written report keeps every finding in the same order."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

import analyzer
from analyzer.cli import main
from analyzer.findings import KIND_ORDER, NOT_A_MISMATCH, severity

MISTAKES = "sample_logs/checks/sheet_with_mistakes.csv"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[str]:
    """The sheet with mistakes, two game fragments (a `partial_game` note each) and a rejected row."""
    folder = tmp_path_factory.mktemp("check")
    rows = pl.read_csv("sample_logs/csv/round1.csv", infer_schema=False)
    # each game of round 1 without its first row: replayed from its first row, a note
    rows.filter(pl.int_range(pl.len()).over("game_id") > 0).write_csv(folder / "fragments.csv")
    (folder / "bad.csv").write_text(
        "game_id,round,honba,player_0,player_1,player_2,player_3,result,winner,loser,han,fu\n"
        "B,E1,0,P,Q,R,S,ron,Nobody,P,3,40\n",
        encoding="utf-8",
    )
    return [MISTAKES, str(folder / "fragments.csv"), str(folder / "bad.csv")]


@pytest.fixture(scope="module")
def result(inputs):
    return analyzer.check(inputs, "tenhou", keep_scored=False)


ORDER = [  # kind, a kind listed after it
    ("money", "payment"), ("payment", "value"), ("value", "game_end"), ("game_end", "table"),
    ("table", "plausibility"), ("plausibility", "tiles"), ("tiles", "reject"), ("reject", "note"),
    ("reject", "some_new_kind"), ("some_new_kind", "note"),
]


@pytest.mark.parametrize("first, later", ORDER)
def test_kinds_are_ordered_by_severity(first, later):
    ranks = pl.select(severity(pl.Series([first, later]))).to_series().to_list()
    assert ranks[0] < ranks[1]


def test_every_kind_has_a_place_and_notes_come_last():
    assert set(KIND_ORDER) >= {"money", "payment", "value", "game_end", "table", "plausibility", "tiles", "reject",
                               "note"}
    assert KIND_ORDER[-len(NOT_A_MISMATCH):] == NOT_A_MISMATCH


def test_findings_come_most_serious_first_then_by_game(result):
    kinds = result.findings["kind"].to_list()
    assert set(kinds) == {"payment", "value", "game_end", "reject", "note"}
    ranks = result.findings.select(severity(pl.col("kind"))).to_series().to_list()
    assert ranks == sorted(ranks)
    assert kinds[-2:] == ["note", "note"] and kinds.index("note") == result.mismatches.height
    payments = result.findings.filter(kind="payment")
    assert payments.select("hand_no", "seat").rows() == sorted(payments.select("hand_no", "seat").rows())


NAMES = [  # field, seat, the player at that seat (null where there is no seat)
    ("delta_0", 0, "Aoki"), ("delta_1", 1, "Baba"), ("delta_2", 2, "Chiba"), ("delta_3", 3, "Doi"),
    ("final_score", 2, "Chiba"), ("points", None, None), ("winner", None, None),
]


@pytest.mark.parametrize("field, seat, player", NAMES)
def test_a_finding_at_a_seat_names_its_player(result, field, seat, player):
    rows = result.findings.filter(pl.col("field") == field)
    if seat is not None:
        rows = rows.filter(pl.col("seat") == seat)
    assert rows.height >= 1
    assert rows["player"].to_list() == [player] * rows.height
    assert rows["seat"].to_list() == [seat] * rows.height


def test_the_console_lists_mismatches_first_and_counts_the_notes(inputs):
    out = CliRunner().invoke(main, ["check", *inputs, "--rules", "tenhou"]).output
    assert "First 12 of 12 mismatches" in out
    assert "2 notes: partial_game 2 — --notes to list them" in out
    assert "│ partial_game" not in out and "note" not in out.split("Mismatches per kind")[1].split("First")[0]
    table = out.split("First 12 of 12 mismatches")[1]
    # most serious first: the payments of T1, then its value, its final scores, the rejected row
    assert table.index("delta_0") < table.index("points") < table.index("final_score") < table.index("Nobody")
    assert "│ Aoki" in table and "│ Doi" in table


def test_notes_are_listed_with_the_notes_flag(inputs):
    out = CliRunner().invoke(main, ["check", *inputs, "--rules", "tenhou", "--notes"]).output
    assert "First 14 of 14 findings" in out and "--notes to list them" not in out
    table = out.split("First 14 of 14 findings")[1]
    assert table.index("Nobody") < table.index("partial_game")
    assert "Findings per kind and field" in out


def test_show_cuts_the_listing_and_the_note_line_stays(inputs):
    out = CliRunner().invoke(main, ["check", *inputs, "--rules", "tenhou", "--show", "2"]).output
    assert "First 2 of 12 mismatches" in out and "2 notes: partial_game 2" in out


def test_notes_alone_print_the_note_line_only(inputs):
    out = CliRunner().invoke(main, ["check", inputs[1], "--rules", "tenhou"])
    assert out.exit_code == 0
    assert "Mismatches per kind" not in out.output and "2 notes: partial_game 2 — --notes" in out.output


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_the_written_report_keeps_every_finding_in_the_same_order(inputs, result, tmp_path, suffix):
    path = tmp_path / f"findings.{suffix}"
    CliRunner().invoke(main, ["check", *inputs, "--rules", "tenhou", "-o", str(path)])
    written = pl.read_csv(path) if suffix == "csv" else pl.read_parquet(path)
    assert written.columns == result.findings.columns and "player" in written.columns
    assert written.select("kind", "game_id", "field", "seat", "player").rows() == result.findings.select(
        "kind", "game_id", "field", "seat", "player").rows()
