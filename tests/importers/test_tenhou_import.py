"""The Tenhou importer on our own sample game and on small broken inputs (no shared logs needed)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import polars as pl
import pytest

from analyzer.importers import ImportProblem, read_tenhou
from analyzer.importers._common import is_tenpai, replay
from analyzer.importers.tenhou import COLUMNS, parse_file
from analyzer.rules import from_spec

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_logs" / "tenhou" / "sample_tonpuu.json"


@pytest.fixture(scope="module")
def sample() -> pl.DataFrame:
    df, problems = read_tenhou([SAMPLE])
    assert problems == []
    return df


def test_sample_rows(sample):
    assert sample.schema == pl.Schema(COLUMNS)
    assert sample["game_id"].unique().to_list() == ["sample_tonpuu"]
    assert sample["round"].to_list() == ["E1", "E2", "E3", "E4"]
    assert sample["honba"].to_list() == [0, 0, 0, 1]
    assert sample["result"].to_list() == ["ron", "tsumo", "draw", "ron"]
    assert sample["winner"].to_list() == ["1", "2", None, "0"]
    assert sample["loser"].to_list() == ["0", None, None, "3"]
    assert sample["riichi"].to_list() == [[], ["2"], [], []]
    assert sample["tenpai"].to_list() == [None, None, ["0"], None]
    assert sample["hand"].to_list() == ["234567m23455p678s", "123m456p234789s77z", None, "234406m340p06788s"]
    assert sample["win_tile"].to_list() == ["5p", "7z", None, "7s"]
    assert sample["melds"].to_list() == [[], [], None, []]
    assert sample["ura"].to_list() == [None, "8m", None, None]
    assert sample["recorded_points"].to_list() == [1300, 2000, None, 8000]
    assert sample["recorded_limit"].to_list() == [None, None, None, "mangan"]
    assert sample["recorded_yaku"].to_list() == [["tanyao"], ["riichi", "menzen_tsumo"], None, ["pinfu", "tanyao"]]
    assert sample["recorded_aka_dora"].to_list() == [0, 0, None, 3]
    # E2: Tenhou's deltas (+3000 for the winner, own stick back) with the -1000 riichi deposit booked
    assert [sample.row(1, named=True)[f"recorded_delta_{s}"] for s in range(4)] == [-500, -1000, 2000, -500]
    last = sample.row(3, named=True)
    assert [last[f"recorded_final_{s}"] for s in range(4)] == [34500, 24300, 26000, 15200]
    assert [last[f"recorded_game_points_{s}"] for s in range(4)] == [45.0, -16.0, 6.0, -35.0]
    assert sample["recorded_final_0"].null_count() == 3
    for flag in ("ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou"):
        assert sample[flag].to_list() == [False, False, None, False]
    assert set(sample["rules"]) == {"tenhou"}
    assert set(sample["game_length"]) == {"tonpuu"}
    from_spec(sample["rules"][0])


def test_sample_scores_are_consistent():
    game = parse_file(SAMPLE)
    start = [25000] * 4
    for k in game.kyokus:
        assert k.scores == start
        rp = replay(k)
        start = [start[s] + sum(o.deltas[s] for o in k.outcomes) - 1000 * rp.riichi.count(s) for s in range(4)]
    assert start == game.final_scores
    draw = game.kyokus[2]
    rp = replay(draw)
    assert rp.draws == 70
    assert [s for s in range(4) if is_tenpai(rp.concealed[s], rp.melds[s])] == [0]


def test_json_lines_one_kyoku_per_line_is_one_game(tmp_path, sample):
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    lines = [json.dumps({k: v for k, v in game.items() if k != "log"} | {"log": [k]}, ensure_ascii=False)
             for k in game["log"]]
    (tmp_path / "lines.json").write_text("\n".join(lines) + "\n", encoding="utf-8")
    df, problems = read_tenhou([tmp_path / "lines.json"])
    assert problems == []
    assert df.drop("game_id").equals(sample.drop("game_id"))
    assert df["game_id"].unique().to_list() == ["lines"]


def test_paths_dirs_globs_gzip_and_unique_ids(tmp_path):
    data = SAMPLE.read_bytes()
    (tmp_path / "a").mkdir()
    (tmp_path / "b" / "deep").mkdir(parents=True)
    (tmp_path / "a" / "game.json").write_bytes(data)
    (tmp_path / "b" / "deep" / "game.json.gz").write_bytes(gzip.compress(data))
    (tmp_path / "b" / "notes.md").write_text("not a log")
    df, problems = read_tenhou([tmp_path / "b", str(tmp_path / "a" / "*.json")])
    assert problems == []
    assert df.height == 8
    assert df["game_id"].unique(maintain_order=True).to_list() == ["game", "a/game"]
    df, problems = read_tenhou([tmp_path / "missing", str(tmp_path / "*.nothing")])
    assert df.height == 0 and df.schema == pl.Schema(COLUMNS)
    assert [p.reason for p in problems] == ["no such file or directory", "the pattern matches no file"]


def test_malformed_files_are_problems_and_others_still_import(tmp_path):
    (tmp_path / "good.json").write_bytes(SAMPLE.read_bytes())
    (tmp_path / "broken.json").write_text('{"log": [[[0,0,0]')
    (tmp_path / "broken.mjlog").write_text('<mjloggm ver="2.3"><GO type="169"/><INIT seed="0,0')
    (tmp_path / "empty.mjlog").write_text("")
    (tmp_path / "bad.json.gz").write_bytes(b"\x1f\x8bnot gzip")
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    game["log"][0][16] = ["和了", [0, 0, 0, 0], [1, 0, 1, "40符1飜1300点"]]
    game["log"][0][6] = game["log"][0][6][:-1]  # the dealer's ronned discard is missing
    (tmp_path / "inconsistent.json").write_text(json.dumps(game))
    df, problems = read_tenhou([tmp_path])
    assert df["game_id"].unique().to_list() == ["good"]
    reasons = {Path(p.file).name: p.reason for p in problems}
    assert set(reasons) == {"broken.json", "broken.mjlog", "empty.mjlog", "bad.json.gz", "inconsistent.json"}
    assert "not valid JSON" in reasons["broken.json"]
    assert "XML" in reasons["broken.mjlog"]
    assert "gzip" in reasons["bad.json.gz"]
    assert "replay failed" in reasons["inconsistent.json"]
    assert all(isinstance(p, ImportProblem) and not p.imported for p in problems)


def test_three_player_games_are_unsupported(tmp_path):
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    game["name"] = game["name"][:3]
    game["rule"]["disp"] = "三般東喰赤"
    (tmp_path / "sanma.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "sanma.mjlog").write_text(
        '<mjloggm ver="2.3"><GO type="185" lobby="0"/><UN n0="a" n1="b" n2="c" n3=""/><TAIKYOKU oya="0"/>'
        '<INIT seed="0,0,0,1,2,3" ten="350,350,350,0" oya="0" hai0="1" hai1="2" hai2="3" hai3=""/></mjloggm>'
    )
    df, problems = read_tenhou([tmp_path])
    assert df.height == 0
    assert len(problems) == 2
    assert all("three-player" in p.reason for p in problems)


def test_names_made_unique_and_rules_from_log(tmp_path):
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    game["name"] = ["A", "A", "", "NoName"]
    game["rule"] = {"disp": "般東", "aka": 0}
    (tmp_path / "g.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    df, problems = read_tenhou([tmp_path / "g.json"])
    assert problems == []
    assert df.select("player_0", "player_1", "player_2", "player_3").row(0) == ("A", "A (2)", "NoName", "NoName (2)")
    spec = df["rules"][0]
    assert spec == "tenhou;aka_dora=false;open_tanyao=false"
    rules = from_spec(spec)
    assert not rules.aka_dora and not rules.open_tanyao


def test_unknown_yaku_name_is_kept_and_reported(tmp_path):
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    game["log"][0][16][2][4] = "謎の役(1飜)"
    (tmp_path / "g.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    df, problems = read_tenhou([tmp_path / "g.json"])
    assert df["recorded_yaku"][0].to_list() == ["unknown:謎の役"]
    assert len(problems) == 1 and problems[0].imported and problems[0].game_id == "g"
