"""The Tenhou importer on our own sample game and on small broken inputs (no shared logs needed)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.formats import ImportProblem, read_tenhou
from analyzer.formats.columns import COLUMNS
from analyzer.formats.hand_shape import is_tenpai
from analyzer.formats.parse import parse_file
from analyzer.formats.replay import replay
from analyzer.core.rules import from_spec

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "sample_logs" / "tenhou" / "sample_tonpuu.json"


@pytest.fixture(scope="module")
def sample() -> pl.DataFrame:
    df, problems = read_tenhou([SAMPLE])
    assert problems == []
    return df


def test_sample_rows(sample):
    assert sample.schema == pl.Schema(COLUMNS)
    # no log id in the log nor in its name: the id hashes the content
    [gid] = sample["game_id"].unique().to_list()
    assert gid.startswith("log-") and len(gid) == 20 and int(gid[4:], 16) >= 0
    # no ranks, ratings or Tenhou log id recorded: the identity columns are null
    identity = [*(f"dan_{s}" for s in range(4)), *(f"rate_{s}" for s in range(4)), "played_at"]
    assert all(sample[c].null_count() == sample.height for c in identity)
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
    assert set(sample["rules"]) == {"tenhou;game_length=east"}  # the log says east-only (tonpuu)
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
    assert df.drop("game_id", "log_file").equals(sample.drop("game_id", "log_file"))  # log_row: the kyoku
    assert df["game_id"].n_unique() == 1 and df["game_id"][0] != sample["game_id"][0]  # other content


def test_paths_dirs_globs_gzip(tmp_path):
    data = SAMPLE.read_bytes()
    (tmp_path / "a").mkdir()
    (tmp_path / "b" / "deep").mkdir(parents=True)
    (tmp_path / "a" / "game.json").write_bytes(data.replace(b'"Aoi"', b'"Ann"'))
    (tmp_path / "b" / "deep" / "game.json.gz").write_bytes(gzip.compress(data))
    (tmp_path / "b" / "notes.md").write_text("not a log")
    df, problems = read_tenhou([tmp_path / "b", str(tmp_path / "a" / "*.json")])
    assert problems == []
    assert df.height == 8
    assert df["game_id"].n_unique() == 2  # two files of the same name, two games
    assert df["player_0"].unique(maintain_order=True).to_list() == ["Aoi", "Ann"]
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
    assert df.height == 4 and df["game_id"].n_unique() == 1  # good.json
    reasons = {Path(p.file).name: p.reason for p in problems}
    assert set(reasons) == {"broken.json", "broken.mjlog", "empty.mjlog", "bad.json.gz", "inconsistent.json"}
    assert "not valid JSON" in reasons["broken.json"]
    assert "XML" in reasons["broken.mjlog"]
    assert "gzip" in reasons["bad.json.gz"]
    assert "replay failed" in reasons["inconsistent.json"]
    assert all(isinstance(p, ImportProblem) and not p.imported for p in problems)


def test_three_player_json_dealing_four_hands_is_refused_and_mjlog_checks_its_seats(tmp_path):
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))  # three names and a 三 room, but four hands dealt
    game["name"] = game["name"][:3]
    game["rule"]["disp"] = "三般東喰赤"
    (tmp_path / "sanma.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    # GO type bit 0x10 says three players, but a fourth hand is dealt
    (tmp_path / "sanma.mjlog").write_text(
        '<mjloggm ver="2.3"><GO type="185" lobby="0"/><UN n0="a" n1="b" n2="c" n3=""/><TAIKYOKU oya="0"/>'
        '<INIT seed="0,0,0,1,2,3" ten="350,350,350,0" oya="0" hai0="1" hai1="2" hai2="3" hai3="4"/></mjloggm>'
    )
    df, problems = read_tenhou([tmp_path])
    assert df.height == 0
    reasons = {Path(p.file).name: p.reason for p in problems}
    assert "names a three-player game (3 names or a 三 room) but deals four hands" in reasons["sanma.json"]
    assert "fourth hand in a 3-player game" in reasons["sanma.mjlog"]


def test_names_made_unique_and_rules_from_log(tmp_path):
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    game["name"] = ["A", "A", "", "NoName"]
    game["rule"] = {"disp": "般東", "aka": 0}
    (tmp_path / "g.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    df, problems = read_tenhou([tmp_path / "g.json"])
    assert problems == []
    gid = df["game_id"][0]
    # anonymous players are different people in every game: never merged in the standings
    assert df.select("player_0", "player_1", "player_2", "player_3").row(0) == (
        "A", "A (2)", f"NoName@{gid}#2", f"NoName@{gid}#3")
    spec = df["rules"][0]
    assert spec == "tenhou;aka_dora=false;open_tanyao=false;game_length=east"  # 般東: east-only
    rules = from_spec(spec)
    assert not rules.aka_dora and not rules.open_tanyao and rules.game_length == "east"


def test_unknown_yaku_name_is_kept_and_reported(tmp_path):
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    game["log"][0][16][2][4] = "謎の役(1飜)"
    (tmp_path / "g.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    df, problems = read_tenhou([tmp_path / "g.json"])
    assert df["recorded_yaku"][0].to_list() == ["unknown:謎の役"]
    assert len(problems) == 1 and problems[0].imported and problems[0].game_id == df["game_id"][0]
    assert problems[0].hand == 1  # the first hand of the file: as its rows' log_row


def test_import_notes_name_the_file_the_game_and_the_hand(tmp_path):
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    game["log"][1][16][2][5] = "謎の役(1飜)"  # the second hand's tsumo
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "g.parquet"
    run = CliRunner().invoke(main, ["import", "tenhou", str(path), "-o", str(out)])
    assert run.exit_code == 0, run.output
    gid = pl.read_parquet(out)["game_id"][0]
    said = f"{path} (game {gid}, hand 2): E2-0: unrecognised yaku name '謎の役'"
    assert "".join(said.split()) in "".join(run.output.split())  # however the console folds the line


# --- the same game as mjlog XML ---------------------------------------------------------------------------
_SAMPLE_YAKU = [[(8, 1)], [(1, 1), (0, 1), (53, 0)], None, [(7, 1), (8, 1), (54, 3)]]  # Tenhou yaku ids, han
_SAMPLE_TEN = ["40,1300,0", "30,2000,0", None, "30,8000,1"]


def _as_mjlog(game_type: int) -> str:
    """The sample game written as an mjlog, from the replayed events (tile ids handed out per kind)."""
    game = parse_file(SAMPLE)
    out = [f'<mjloggm ver="2.3"><GO type="{game_type}" lobby="0"/>',
           '<UN n0="Aoi" n1="Ben" n2="Chie" n3="Dan" dan="0,0,0,0" rate="1500,1500,1500,1500" sx="M,F,F,M"/>',
           '<TAIKYOKU oya="0"/>']
    for n, k in enumerate(game.kyokus):
        free = {kd: [4 * kd + i for i in range(4)] for kd in range(34)}
        for kd in (4, 13, 22):
            free[kd].remove(4 * kd)  # id 16/52/88 is the red five
        def take(tile: int) -> int:
            return 4 * (tile % 100) if tile >= 100 else free[tile].pop()
        held = [dict() for _ in range(4)]
        def hold(s: int, tile: int) -> int:
            tid = take(tile)
            held[s].setdefault(tile, []).append(tid)
            return tid
        hands = [[hold(s, t) for t in k.haipai[s]] for s in range(4)]
        dora = [take(t) for t in k.dora]
        scores = list(k.scores)
        out.append(f'<INIT seed="{k.kyoku},{k.honba},{k.kyotaku},0,0,{dora[0]}" '
                   f'ten="{",".join(str(x // 100) for x in scores)}" oya="{k.dealer}" '
                   + " ".join(f'hai{s}="{",".join(map(str, hands[s]))}"' for s in range(4)) + "/>")
        last = None
        for ev in k.events:
            if ev[0] == "draw":
                last = hold(ev[1], ev[2])
                out.append(f"<{'TUVW'[ev[1]]}{last}/>")
            elif ev[0] == "discard":
                if ev[3]:
                    out.append(f'<REACH who="{ev[1]}" step="1"/>')
                last = held[ev[1]][ev[2]].pop()
                out.append(f"<{'DEFG'[ev[1]]}{last}/>")
            elif ev[0] == "reach":
                scores[ev[1]] -= 1000
                out.append(f'<REACH who="{ev[1]}" ten="{",".join(str(x // 100) for x in scores)}" step="2"/>')
        o = k.outcomes[0]
        sticks = k.kyotaku + sum(1 for ev in k.events if ev[0] == "reach")
        sc = ",".join(f"{scores[s] // 100},{o.deltas[s] // 100}" for s in range(4))
        end = ' owari="345,45.0,243,-16.0,260,6.0,152,-35.0"' if n == len(game.kyokus) - 1 else ""
        if o.result == "draw":
            shown = " ".join(f'hai{s}="{",".join(str(i) for ids in held[s].values() for i in ids)}"' for s in o_tenpai(o))
            out.append(f'<RYUUKYOKU ba="{k.honba},{sticks}" sc="{sc}" {shown}{end}/>')
            continue
        w = o.winner
        concealed = [i for ids in held[w].values() for i in ids]
        if o.result == "ron":
            concealed.append(last)
        yaku = ",".join(f"{y},{h}" for y, h in _SAMPLE_YAKU[n])
        ura = f' doraHaiUra="{",".join(str(take(t)) for t in o.ura_indicators)}"' if o.ura_indicators else ""
        out.append(f'<AGARI ba="{k.honba},{sticks}" hai="{",".join(map(str, sorted(concealed)))}" machi="{last}" '
                   f'ten="{_SAMPLE_TEN[n]}" yaku="{yaku}" doraHai="{",".join(map(str, dora))}"{ura} who="{w}" '
                   f'fromWho="{w if o.loser is None else o.loser}" sc="{sc}"{end}/>')
    return "".join(out) + "</mjloggm>"


def o_tenpai(o) -> list[int]:
    return [s for s in range(4) if o.deltas[s] > 0]


def test_the_same_game_as_mjlog_imports_the_same(tmp_path, sample):
    (tmp_path / "sample.mjlog").write_text(_as_mjlog(game_type=0x01 | 0x40))
    df, problems = read_tenhou([tmp_path / "sample.mjlog"])
    assert problems == []
    identity = [*(f"dan_{s}" for s in range(4)), *(f"rate_{s}" for s in range(4))]
    differ = ["game_id", "log_file", "lobby", "recorded_fu", *identity]
    assert df.drop(differ).equals(sample.drop(differ))
    assert df["lobby"].unique().to_list() == [0]
    # the mjlog's UN records ranks and ratings: dan="0,0,0,0" rate="1500,1500,1500,1500"
    assert df.select(identity).unique().rows() == [(0, 0, 0, 0, 1500.0, 1500.0, 1500.0, 1500.0)]
    # mjlog records fu for limit hands too; the JSON value string of a mangan ("満貫8000点") does not
    assert df["recorded_fu"].to_list() == [40, 30, None, 30]
    assert sample["recorded_fu"].to_list() == [40, 30, None, None]


def test_mjlog_rule_bits(tmp_path):
    (tmp_path / "g.mjlog").write_text(_as_mjlog(game_type=0x01 | 0x02 | 0x04 | 0x08))
    df, problems = read_tenhou([tmp_path / "g.mjlog"])
    assert problems == []
    assert set(df["rules"]) == {"tenhou;aka_dora=false;open_tanyao=false"}
    assert set(df["game_length"]) == {"hanchan"}
    assert "0" not in "".join(df["hand"].drop_nulls())  # no red fives without aka
    # a lobby bit not known here: the game imports under Tenhou's rules, and a note says so, once
    (tmp_path / "g.mjlog").write_text(_as_mjlog(game_type=0x1001))
    df, problems = read_tenhou([tmp_path / "g.mjlog"])
    assert df.height == 4 and set(df["rules"]) == {"tenhou;game_length=east"}
    note = "GO type 0x1001 has lobby bits not known here (0x1000): scored under Tenhou's rules"
    assert [(p.reason, p.imported) for p in problems] == [(note, True)]
    assert df["rules_note"].to_list() == [None, None, None, note]


def test_rules_spec_takes_start_points_and_tenths_from_the_log(tmp_path):
    game = json.loads(SAMPLE.read_text(encoding="utf-8"))
    game["log"][0][1] = [30000, 30000, 30000, 30000]  # the first hand starts from 30,000 each
    game["sc"] = [sc + 0.3 if i % 2 else sc for i, sc in enumerate(game["sc"])]  # points reported in tenths
    (tmp_path / "g.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    df, _ = read_tenhou([tmp_path / "g.json"])
    spec = df["rules"][0]
    assert "start_points=30000" in spec and "game_points_rounding=tenth" in spec
    assert from_spec(spec).start_points == 30000


def test_mjlog_read_tag_by_tag_refuses_damage(tmp_path, sample):
    """The mjlog reader splits the text on '<' instead of parsing XML: every tag must still be read, and
    damage is a problem for that file, never a game quietly missing a draw."""
    text = _as_mjlog(game_type=0x01)
    first_draw = text.index("<T", text.index("<INIT"))
    cases = {
        "cut.mjlog": text[: len(text) // 2],  # no closing </mjloggm>
        "garbled.mjlog": text[:first_draw] + "<T%%/>" + text[first_draw:],
        "bad_tile.mjlog": text[:first_draw] + "<T136/>" + text[first_draw:],
        "not_mjlog.mjlog": text.replace("mjloggm", "other"),
    }
    for name, body in cases.items():
        (tmp_path / name).write_text(body)
    # whitespace between tags and inside a play tag, as a pretty-printer writes them, reads the same
    (tmp_path / "spaced.mjlog").write_text(text.replace("/><", "/>\n  <").replace("/>", " />"))
    df, problems = read_tenhou([tmp_path])
    reasons = {Path(p.file).name: p.reason for p in problems}
    assert set(reasons) == set(cases)
    assert "cut short" in reasons["cut.mjlog"]
    assert "cannot be read" in reasons["garbled.mjlog"]
    assert "bad tile id 136" in reasons["bad_tile.mjlog"]
    assert "not an mjlog file" in reasons["not_mjlog.mjlog"]
    differ = ["game_id", "log_file", "lobby", "recorded_fu", *(f"{c}_{s}" for c in ("dan", "rate") for s in range(4))]
    assert df.drop(differ).equals(sample.drop(differ))


def test_progress_reports_files_and_games(tmp_path):
    for n in range(3):  # three games (the same log three times would be one)
        (tmp_path / f"g{n}.json").write_bytes(SAMPLE.read_bytes().replace(b'"Aoi"', f'"Aoi{n}"'.encode()))
    calls = []
    df, problems = read_tenhou([tmp_path], progress=lambda done, total, games: calls.append((done, total, games)))
    assert calls[-1][:2] == (3, 3)
    assert calls[-1][2] == df["game_id"].n_unique()
    assert [c[0] for c in calls] == sorted(c[0] for c in calls)


@pytest.mark.parametrize("attribute", ['who="-1"', 'fromWho="7"', 'paoWho="-2"'])
def test_mjlog_win_with_a_seat_outside_the_table_is_a_problem(tmp_path, attribute):
    text = _as_mjlog(game_type=0x01)
    name = attribute.split("=")[0]
    start = text.index("<AGARI")
    end = text.index("/>", start)
    tag = text[start:end]
    if f"{name}=" in tag:
        tag = tag.replace(tag[tag.index(f"{name}="):].split(" ")[0], attribute)
    else:
        tag += f" {attribute}"
    (tmp_path / "g.mjlog").write_text(text[:start] + tag + text[end:])
    df, problems = read_tenhou([tmp_path / "g.mjlog"])
    assert df.height == 0
    assert "bad seat" in problems[0].reason
