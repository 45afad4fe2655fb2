"""Three-player Tenhou logs: ``sanma2.xml`` (a Phoenix sanma hanchan, GO type 185 = bit 0x10) imports with its
north tiles set aside (``kita``, from the mjlog nukidora meld bit 0x20), seat 3 empty, and ``check`` agrees
with every value Tenhou recorded: han, fu, yaku, dora (Tenhou counts each kita in its dora), deltas, final
scores and game points under ``tenhou_sanma``. ``sanma.xml`` is not a three-player game (GO type 2113: four
players in a 雀荘 lobby, bit 0x800: ``test_special_lobbies``)."""

from __future__ import annotations

import polars as pl

import analyzer
from analyzer.formats.read import read_tenhou


def test_sanma_log_imports_and_checks_clean(shared_logs, tmp_path):
    folder = shared_logs / "mjlog" / "dnovikoff-tenhou"
    hands, problems = read_tenhou([folder / "sanma2.xml", folder / "sanma.xml"])
    assert [p.reason.split(":")[0] for p in problems] == ["a 雀荘 (jansou) lobby (GO type 0x841)"]  # sanma.xml
    hands = hands.filter(pl.col("log_file").str.ends_with("sanma2.xml"))
    assert hands.height == 6
    assert hands["rules"].unique().to_list() == ["tenhou_sanma"]
    assert hands["player_3"].null_count() == 6 and hands["recorded_delta_3"].null_count() == 6
    wins = hands.filter(pl.col("result").is_in(["ron", "tsumo"]))
    assert wins["kita"].to_list() == [1, 0, 1, 1, 1]  # the winners' norths set aside, from the log's melds
    last = hands.row(-1, named=True)
    assert [last[f"recorded_final_{s}"] for s in range(3)] == [27_400, 83_100, -5_500]

    report = analyzer.check(hands)
    assert report.ok, report.findings
    compared = set(report.summary["field"]) if "field" in report.summary.columns else set()
    assert not compared  # nothing differs
    scored = analyzer.score(hands)
    assert scored.hands["dora_count"].drop_nulls().to_list() == wins["recorded_dora"].to_list()
    games = scored.games.sort("seat")
    assert games["final_score"].to_list() == [27_400, 83_100, -5_500]
    assert games["game_points"].to_list() == [-13.0, 79.0, -66.0]
