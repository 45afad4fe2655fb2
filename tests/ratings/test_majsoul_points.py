"""Mahjong Soul's rank points, worked by hand from the formula and tables of docs/ratings.md
(analyzer.ratings.majsoul_points): ceil((final - start)/1000 + uma) + the room's place points, less the level's
loss for last place; start 25,000 and uma 15/5/-5/-15 with four players, 35,000 and 15/0/-15 with three;
Celestial players soul points by place (doubled when the whole table is Celestial)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import polars as pl
import pytest

import analyzer
from analyzer.formats import read_majsoul, read_tenhou
from analyzer.ratings.majsoul_points import with_computed_rank_points
from analyzer.ratings.platform import level_of

RAW = Path(__file__).resolve().parents[1] / "data" / "majsoul_raw"
AT = datetime(2024, 5, 1, 12, tzinfo=timezone.utc)


def computed(rows: list[tuple], at: datetime | None = AT) -> list[int | None]:
    """(game_id, room, players, rank, place, final) rows -> their computed_rank_points."""
    frame = pl.DataFrame(rows, schema={"game_id": pl.String, "room": pl.String, "players": pl.Int64,
                                       "platform_rank": pl.String, "place": pl.Int64, "final_score": pl.Int64},
                         orient="row").with_columns(
        level_of(pl.col("platform_rank")).alias("level"), pl.lit(at, pl.Datetime("us", "UTC")).alias("played_at"))
    return with_computed_rank_points(frame)["computed_rank_points"].to_list()


@pytest.mark.parametrize("room, players, rank, place, final, expected", [
    # four players
    ("銅の間東喰赤", 4, "初心★1", 1, 38200, 39),       # ceil(13.2 + 15) = 29, + 10
    ("銅の間南喰赤", 4, "雀士★1", 4, 9800, -50),       # ceil(-15.2 - 15) = -30, - 20 (雀士★1, South)
    ("銀の間東喰赤", 4, "雀士★3", 2, 27000, 17),       # ceil(2 + 5) = 7, + 10
    ("銀の間南喰赤", 4, "雀傑★1", 4, -2300, -122),     # ceil(-27.3 - 15) = -42, - 80 (雀傑★1, South)
    ("金の間東喰赤", 4, "雀傑★2", 3, 24100, -5),       # ceil(-0.9 - 5) = ceil(-5.9) = -5: rounded up
    ("金の間南喰赤", 4, "雀傑★3", 1, 45300, 116),      # ceil(20.3 + 15) = 36, + 80
    ("玉の間東喰赤", 4, "雀豪★2", 4, 8000, -122),      # ceil(-17 - 15) = -32, - 90 (雀豪★2, East)
    ("玉の間南喰赤", 4, "雀豪★3", 2, 31900, 67),       # ceil(6.9 + 5) = 12, + 55
    ("王座の間東喰赤", 4, "雀聖★2", 1, 52000, 102),    # ceil(27 + 15) = 42, + 60
    ("王座の間南喰赤", 4, "雀聖★3", 4, 12100, -267),   # ceil(-12.9 - 15) = -27, - 240 (雀聖★3, South)
    # three players
    ("三金の間東喰赤", 3, "雀傑★1", 2, 35000, 0),      # ceil(0 + 0) = 0, + 0
    ("三金の間南喰赤", 3, "雀豪★1", 3, 20400, -194),   # ceil(-14.6 - 15) = -29, - 165 (雀豪★1, South)
    ("三玉の間東喰赤", 3, "雀豪★3", 1, 50100, 106),    # ceil(15.1 + 15) = 31, + 75
    ("三玉の間南喰赤", 3, "雀聖★1", 3, 25300, -264),   # ceil(-9.7 - 15) = -24, - 240 (3p 雀聖★1, South)
    ("三王座の間東喰赤", 3, "雀聖★3", 3, 30000, -180), # ceil(-5 - 15) = -20, - 160 (3p 雀聖★3, East)
    ("三王座の間南喰赤", 3, "雀聖★2", 1, 48700, 269),  # ceil(13.7 + 15) = 29, + 240
    # more levels in the same rooms
    ("銅の間東喰赤", 4, "初心★3", 4, 5000, -35),       # ceil(-20 - 15) = -35, - 0 (初心 lose nothing)
    ("銀の間南喰赤", 4, "雀士★2", 3, 18800, -11),      # ceil(-6.2 - 5) = ceil(-11.2) = -11
    ("金の間東喰赤", 4, "雀士★1", 4, 20000, -30),      # ceil(-5 - 15) = -20, - 10 (雀士★1, East)
    ("金の間南喰赤", 4, "雀豪★1", 4, 15000, -190),     # ceil(-10 - 15) = -25, - 165 (雀豪★1, South)
    ("玉の間東喰赤", 4, "雀聖★3", 1, 33300, 79),       # ceil(8.3 + 15) = 24, + 55
    ("王座の間東喰赤", 4, "雀聖★1", 4, -1000, -151),   # ceil(-26 - 15) = -41, - 110 (雀聖★1, East)
    ("王座の間南喰赤", 4, "雀聖★1", 3, 22000, -8),     # ceil(-3 - 5) = -8
    ("三金の間東喰赤", 3, "雀傑★3", 1, 41000, 76),     # ceil(6 + 15) = 21, + 55
    ("三玉の間南喰赤", 3, "雀豪★2", 3, 31000, -209),   # ceil(-4 - 15) = -19, - 190 (3p 雀豪★2, South)
    ("三王座の間南喰赤", 3, "雀聖★1", 2, 36100, 2),    # ceil(1.1 + 0) = 2: rounded up
    # Celestial: soul points by place, whatever the score (hundredths: +0.2 SP is 20)
    ("王座の間南喰赤", 4, "魂天Lv2", 2, 61000, 20),
    ("王座の間東喰赤", 4, "魂天", 4, 2000, -30),
    ("三王座の間東喰赤", 3, "魂天Lv1", 3, 1000, -30),
    ("三王座の間南喰赤", 3, "魂天Lv5", 1, 70000, 50),
    # no table: a friendly room, the casual match, three-player Bronze (no public source found)
    ("友人戦南喰", 4, "雀豪★1", 1, 40000, None),
    ("交流の間南喰赤", 4, "雀豪★1", 1, 40000, None),
    ("三銅の間東喰赤", 3, "初心★1", 1, 40000, None),
])  # fmt: skip
def test_each_room_and_length_at_several_levels(room, players, rank, place, final, expected):
    assert computed([("g", room, players, rank, place, final)]) == [expected]


def test_a_whole_table_of_celestials_doubles_the_soul_points():
    rows = [("g", "王座の間南喰赤", 4, f"魂天Lv{s + 1}", s + 1, 40000 - 10000 * s) for s in range(4)]
    assert computed(rows) == [100, 40, -40, -100]
    mixed = rows[:3] + [("g", "王座の間南喰赤", 4, "雀聖★3", 4, 10000)]  # one Saint: not doubled
    assert computed(mixed) == [50, 20, -20, -15 - 15 - 240]  # the Saint: ceil(-15 - 15), - 240


def test_the_tables_by_date():
    row = [("g", "玉の間南喰赤", 4, "雀豪★1", 1, 40000)]  # ceil(15 + 15) = 30, + 110
    assert computed(row, datetime(2023, 1, 1, tzinfo=timezone.utc)) == [140]
    assert computed(row, datetime(2021, 8, 23, tzinfo=timezone.utc)) == [None]  # before the first period
    assert computed(row, None) == [140]  # no time known: the latest tables


def test_the_raw_records_agree_and_check_names_a_wrong_one(tmp_path):
    """The raw test records' grading scores were worked by hand from the formula (tests/data/majsoul_raw/
    compose.py): import, score and check agree; a record whose last place forgot the level's loss is named."""
    paths = [RAW / n for n in ("ranked_east.json", "ranked_south.json", "ranked_sanma.json", "friendly_south.json")]
    hands, _ = read_majsoul(paths)
    table = analyzer.score(hands).platform_ranks
    ranked = table.filter(pl.col("computed_rank_points").is_not_null())
    assert ranked.height == 11 and ranked["rank_points_agree"].all()
    assert table.filter(pl.col("room").str.starts_with("友人戦"))["computed_rank_points"].null_count() == 4
    assert dict(ranked.select("player", "computed_rank_points").rows()) == {
        "Aoi#111001": -3, "Ren#111002": 31, "Yui#111003": -58, "Sora#111004": 62,
        "Sakura#101234": 63, "Sakura#202345": 131, "Kenji#303456": -231, "Mio#404567": -6,
        "Hana#121001": -79, "Taro#121002": 76, "Yuki#121003": 0}
    report = analyzer.check(hands)
    assert report.ok, report.findings
    assert "rank_points_0" in report.fields_compared

    obj = json.loads((RAW / "ranked_south.json").read_text(encoding="utf-8"))
    for p in obj["head"]["result"]["players"]:
        if p["seat"] == 2:
            p["grading_score"] = -21  # the loss of 雀聖★1 (210) left out
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    report = analyzer.check(read_majsoul([wrong])[0])
    assert not report.ok
    found = report.findings.filter(pl.col("field") == "rank_points")
    assert found.select("seat", "player", "kind", "recorded", "computed").rows() == [
        (2, "Kenji#303456", "game_end", "-21", "-231")]
    assert "the level's loss" in found["explanation"][0]


def test_tensoul_logs_get_the_computed_change_without_a_recorded_one():
    """tensoul's JSON has no grading_score: the change is computed, nothing to agree with."""
    hands, _ = read_tenhou([Path(__file__).resolve().parents[1] / "data" / "majsoul"])[:2]
    table = analyzer.score(hands).platform_ranks
    # tensoul names the three-player room 三金の間赤, without its length: the game's (east) is used
    changes = dict(table.select("player", "computed_rank_points").rows())
    assert changes == {"Aoi": -3, "Ren": 31, "Yui": -58, "Sora": 62, "Sakura#101234": 63, "Sakura#202345": 131,
                       "Kenji#303456": -231, "Mio#404567": -6, "Hana": -79, "Taro": 76, "Yuki": 0}
    assert table["rank_points_agree"].null_count() == table.height
