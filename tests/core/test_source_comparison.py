"""What the later sources of a game are: a copy of its first source, the same plays recorded otherwise, or
another version (analyzer.core.records)."""

from __future__ import annotations

import polars as pl

from analyzer.core.records import COPY, OTHER, SAME_PLAYS, compare_sources

ROWS = [{"game_id": "g", "round": "E1", "result": "ron", "player_0": "Taro#121002", "room": "三金の間東喰赤"},
        {"game_id": "g", "round": "E2", "result": "draw", "player_0": "Taro#121002", "room": "三金の間東喰赤"}]


def _source(name: str, start: int, rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame([{**r, "log_file": f"{name}.json", "log_row": i + 1, "_src": name, "_pos": start + i}
                         for i, r in enumerate(rows)])


def test_each_later_source_is_compared_with_the_first():
    written_otherwise = [{**r, "player_0": "Taro", "room": "三金の間赤"} for r in ROWS]
    other = [ROWS[0]]  # a partial log
    rows = pl.concat([_source("b", 10, ROWS), _source("a", 0, ROWS[::-1]), _source("c", 20, written_otherwise),
                      _source("d", 30, other)])
    found = compare_sources(rows, "game_id", "_src", "_pos", keep=["log_file"])
    assert found.select("_src", "kind", "log_file", "_src_first", "log_file_first").rows() == [
        ("b", COPY, "b.json", "a", "a.json"),  # the same rows in another order: where they were recorded aside
        ("c", SAME_PLAYS, "c.json", "a", "a.json"),
        ("d", OTHER, "d.json", "a", "a.json"),
    ]


def test_a_game_of_one_source_has_nothing_to_compare():
    assert compare_sources(_source("a", 0, ROWS), "game_id", "_src", "_pos").is_empty()
