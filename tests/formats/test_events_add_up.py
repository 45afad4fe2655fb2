"""The events table adds up, on every shared log and every test log: per hand its discards and draws are the
log's own discard and draw records and its tsumogiri (counted here from the raw text, not through the model),
its calls per seat
are the hand records' ``calls_*``, its accepted riichi the hand records' ``riichi``, its outcome rows end on the
hand records' ``turn``, and a four-player exhaustive draw leaves ``wall_left`` 0."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest

from analyzer.formats.export import export_events
from analyzer.formats.detect import MJAI, MJLOG, TENHOU_JSON, detect_format
from analyzer.formats.files import AUTO_SUFFIXES, expand_paths, read_log_bytes
from analyzer.formats.read import read_logs
from conftest import SHARED_HINT, SHARED_LOGS

TEST_LOGS = [Path(__file__).parents[1] / "data" / name for name in ("mjlog", "mjai", "majsoul")]


def _mjlog_counts(text: str) -> list[tuple[int, int, int]]:
    """Draw tags, discard tags, and discards of the tile id just drawn (no call between)."""
    counts = []
    for hand in text.split("<INIT")[1:]:
        draws = discards = giri = 0
        drawn = None
        for tag, tile_id in re.findall(r"<([A-Z]+)(\d*)", hand):
            if tag in ("T", "U", "V", "W") and tile_id:
                draws, drawn = draws + 1, tile_id
            elif tag in ("D", "E", "F", "G") and tile_id:
                discards, giri, drawn = discards + 1, giri + (tile_id == drawn), None
            elif tag == "N":
                drawn = None
        counts.append((draws, discards, giri))
    return counts


def _tenhou_json_counts(text: str) -> list[tuple[int, int, int]]:
    """Draws are the tile numbers of the draw arrays (a call's text takes a slot but draws nothing); discards
    the tile numbers of the discard arrays but 0 (the slot of an open kan) and the riichi discards ``r..``;
    tsumogiri the discards written 60."""
    games = [json.loads(line) for line in text.splitlines() if line.strip()]
    counts = []
    for game in games:
        for k in game["log"]:
            draws = sum(isinstance(x, int) for s in range(4) if 5 + 3 * s < len(k) for x in k[5 + 3 * s])
            discards = sum((isinstance(x, int) and x != 0) or (isinstance(x, str) and x.startswith("r"))
                           for s in range(4) if 6 + 3 * s < len(k) for x in k[6 + 3 * s])
            giri = sum(x == 60 or x == "r60" for s in range(4) if 6 + 3 * s < len(k) for x in k[6 + 3 * s])
            counts.append((draws, discards, giri))
    return counts


def _mjai_counts(text: str) -> list[tuple[int, int, int]]:
    counts = []
    for line in text.splitlines():
        if not line.strip():
            continue
        event = json.loads(line)
        kind = event.get("type")
        if kind == "start_kyoku":
            counts.append([0, 0, 0])
        elif kind in ("tsumo", "dahai"):
            counts[-1][kind == "dahai"] += 1
            counts[-1][2] += event.get("tsumogiri") is True
    return [tuple(c) for c in counts]


COUNTERS = {MJLOG: _mjlog_counts, TENHOU_JSON: _tenhou_json_counts, MJAI: _mjai_counts}


def _log_counts(files: list[Path]) -> pl.DataFrame:
    rows = []
    for f in files:
        text = read_log_bytes(f).decode("utf-8-sig")
        for hand, (draws, discards, giri) in enumerate(COUNTERS[detect_format(text)](text), 1):
            rows.append({"log_file": str(f), "log_row": hand, "log_draws": draws, "log_discards": discards,
                         "log_tsumogiri": giri})
    return pl.DataFrame(rows, schema={"log_file": pl.String, "log_row": pl.Int16, "log_draws": pl.UInt32,
                                      "log_discards": pl.UInt32, "log_tsumogiri": pl.UInt32})


def _check_adds_up(paths: list[Path], tmp_path: Path) -> pl.DataFrame:
    out = tmp_path / "events.parquet"
    summary = export_events(paths, out, workers=1)
    hands, problems = read_logs(paths, 1, "auto")
    assert summary.games == hands["game_id"].n_unique() > 0
    assert [p.file for p in summary.problems if not p.imported] == [p.file for p in problems if not p.imported]
    events = pl.read_parquet(out)
    exported = set(events["log_file"].unique())
    files = [f for f in expand_paths(paths, AUTO_SUFFIXES)[0] if str(f) in exported]
    per_hand = events.group_by("log_file", "log_row").agg(
        draws=(pl.col("event") == "draw").sum(),
        discards=(pl.col("event") == "discard").sum(),
        tsumogiri=pl.col("tsumogiri").sum(),
        events_riichi=pl.col("seat").filter(pl.col("event") == "riichi_accepted").cast(pl.String),
        end_turn=pl.col("turn").filter(pl.col("event").is_in(["ron", "tsumo", "exhaustive_draw", "abort"])).first(),
        end_wall=pl.col("wall_left").last(),
        players=(pl.col("event") == "haipai").sum(),
        **{f"events_calls_{s}": (pl.col("event").is_in(["chi", "pon", "minkan", "kakan"]) & (pl.col("seat") == s)).sum()
           for s in range(4)},
    )
    records = hands.group_by("log_file", "log_row").first().with_columns(pl.col("log_row").cast(pl.Int16))
    joined = records.join(per_hand, on=["log_file", "log_row"], how="full", coalesce=True).join(
        _log_counts(files), on=["log_file", "log_row"], how="full", coalesce=True)
    assert joined.height == records.height == per_hand.height
    bad = joined.filter(
        ((pl.col("draws") != pl.col("log_draws")) | (pl.col("discards") != pl.col("log_discards"))
         | (pl.col("tsumogiri") != pl.col("log_tsumogiri"))
         | (pl.col("events_riichi") != pl.col("riichi")) | (pl.col("end_turn") != pl.col("turn"))).fill_null(True)
        | pl.any_horizontal((pl.col(f"events_calls_{s}") != pl.col(f"calls_{s}")).fill_null(False) for s in range(4))
    )
    assert bad.is_empty(), bad.select("log_file", "log_row", "draws", "log_draws", "discards", "log_discards",
                                      "tsumogiri", "log_tsumogiri", "end_turn", "turn", "events_riichi", "riichi")
    exhaustive = joined.filter((pl.col("result").is_in(["draw", "nagashi"])) & (pl.col("players") == 4))
    assert (exhaustive["end_wall"] == 0).all()
    return joined


@pytest.mark.parametrize("folder", TEST_LOGS, ids=lambda p: p.name)
def test_events_add_up_on_test_logs(folder: Path, tmp_path: Path) -> None:
    assert _check_adds_up([folder], tmp_path).height > 0


def test_events_add_up_on_shared_logs(tmp_path: Path) -> None:
    if not SHARED_LOGS.is_dir():
        pytest.skip(f"shared logs not found at {SHARED_LOGS} ({SHARED_HINT})")
    hands = _check_adds_up([SHARED_LOGS], tmp_path)
    assert hands.height > 100  # and the checks are not vacuous:
    assert hands["events_riichi"].list.len().sum() > 100 and hands["calls_0"].sum() > 100
    assert hands.filter(pl.col("result") == "draw").height > 10 and hands["tsumogiri"].sum() > 1000


def test_events_invariants_on_shared_logs(tmp_path: Path) -> None:
    """Within every hand: seq counts 1, 2, …; the wall only shrinks, one tile per draw; each seat's discards are
    on its turns 1, 2, … in order; a starting hand is 13 tiles; a call names the seat it took from only for
    chi, pon and open kan; deltas only on outcome rows."""
    paths = [SHARED_LOGS] if SHARED_LOGS.is_dir() else TEST_LOGS
    export_events(paths, tmp_path / "events.parquet", workers=1)
    ev = pl.read_parquet(tmp_path / "events.parquet")
    hand = ["game_id", "log_row"]
    per_hand = ev.group_by(hand, maintain_order=True).agg(
        seq_ok=(pl.col("seq") == pl.int_range(1, pl.len() + 1)).all(),
        wall_ok=(pl.col("wall_left").diff().fill_null(0) == -(pl.col("event") == "draw").cast(pl.Int8)).all(),
        haipai_ok=(pl.col("tiles").list.len().filter(pl.col("event") == "haipai") == 13).all(),
    )
    assert per_hand["seq_ok"].all() and per_hand["wall_ok"].all() and per_hand["haipai_ok"].all()
    discards = ev.filter(pl.col("event") == "discard").group_by([*hand, "seat"], maintain_order=True).agg(
        ok=(pl.col("turn") == pl.int_range(1, pl.len() + 1)).all())
    assert discards["ok"].all()
    calls = ev.filter(pl.col("event").is_in(["chi", "pon", "minkan", "kakan", "ankan"]))
    assert (calls["from_seat"].is_null() == calls["event"].is_in(["kakan", "ankan"])).all()
    assert (calls["from_seat"] != calls["seat"]).fill_null(True).all()
    outcome = pl.col("event").is_in(["ron", "tsumo", "exhaustive_draw", "abort"])
    assert (ev.select(pl.col("delta_0").is_not_null() == outcome)).to_series().all()
