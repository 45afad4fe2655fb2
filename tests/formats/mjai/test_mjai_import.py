"""The mjai importer: hand-made games from the protocol's published examples, every shared Tenhou log converted
to mjai (tests/formats/mjai/tenhou_to_mjai.py) and imported again, broken files, the CLI and `analyzer check`."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from analyzer import check, read_mjai
from analyzer.cli import main
from analyzer.formats.columns import COLUMNS
from analyzer.formats.tenhou.lobby import lobby_rules
from analyzer.formats.files import expand_paths
from analyzer.formats.hand_shape import is_tenpai
from analyzer.formats.identity import game_id
from analyzer.formats.parse import parse_file
from analyzer.formats.replay import replay
from analyzer.formats.read import read_tenhou

from tests.formats.mjai.tenhou_to_mjai import to_mjai

DATA = Path(__file__).resolve().parents[2] / "data" / "mjai"
GIMITE = DATA / "gimite_examples.mjson"
MORTAL = DATA / "mortal_style.json"


def _id_of(path: Path, log_format: str = "mjai") -> str:
    """The game id a file imports under (from its content: see analyzer.formats.identity)."""
    game = parse_file(path, log_format)
    return game_id(game.ref, path, game.digest)


def _deltas(df: pl.DataFrame) -> list[list[int]]:
    return [list(r) for r in df.select(f"recorded_delta_{s}" for s in range(4)).rows()]


# --- hand-made games (tests/data/mjai/compose.py writes them; expectations read off the events) ------------


@pytest.fixture(scope="module")
def made() -> pl.DataFrame:
    df, problems = read_mjai([DATA])
    assert problems == []
    return df


def test_published_examples_game(made):
    g = made.filter(pl.col("game_id") == _id_of(GIMITE))
    assert g.schema == pl.Schema(COLUMNS)
    assert g["round"].to_list() == ["E1", "E2", "E3", "E4", "E4"]
    assert g["honba"].to_list() == [0, 1, 0, 0, 1]
    assert g["kyotaku"].to_list() == [0, 1, 0, 0, 0]
    assert g.row(0, named=True)["player_0"] == "D" and g["player_3"][0] == "B"
    assert g["result"].to_list() == ["draw", "ron", "tsumo", "abort", "tsumo"]
    assert g["winner"].to_list() == [None, "2", "1", None, "1"]
    assert g["loser"].to_list() == [None, "3", None, None, None]
    assert g["riichi"].to_list() == [["1"], ["2"], ["1"], [], []]
    assert g["tenpai"].to_list() == [["1"], None, None, None, None]  # the ryukyoku's tenpais
    # the published ron: 55m 78m 111p 345p 888s + 9m, ura indicator 6m; the published pinfu tsumo on 8p
    assert g["hand"].to_list() == [None, "05789m111340p888s", "123067m677889p44s", None, "678p22s"]
    assert g["win_tile"].to_list() == [None, "9m", "8p", None, "2s"]
    assert g["melds"].to_list() == [None, [], [], None, ["pon:555z", "chi:234m", "ankan:9999s"]]
    assert g["dora"].to_list() == ["1p", "4z", "2z", "9s", "3z1p"]  # the ankan's indicator 1p added
    assert g["ura"].to_list() == [None, "6m", "3p", None, None]
    assert g["rinshan"].to_list() == [None, False, False, None, True]
    assert g["ippatsu"].to_list() == [None, False, False, None, False]  # both riichi discarded once more
    assert g["recorded_han"].to_list() == [None, 4, 4, None, 2]
    assert g["recorded_fu"].to_list() == [None, 50, 20, None, 60]
    assert g["recorded_points"].to_list() == [None, 8000, 5200, None, 4000]
    assert g["recorded_limit"].to_list() == [None, "mangan", None, None, None]
    assert g["recorded_yaku"].to_list() == [None, ["riichi"], ["riichi", "menzen_tsumo", "pinfu"], None,
                                            ["haku", "rinshan"]]  # gimite's sangenpai is the white pon
    assert g["recorded_ura_dora"].to_list() == [None, 1, 0, None, 0]
    assert g["recorded_aka_dora"].to_list() == [None, 2, 1, None, 0]
    # the riichi deposits (reach_accepted) are booked on the hand's row, as for Tenhou
    assert _deltas(g) == [[-1000, 2000, -1000, -1000], [0, 0, 9300, -8300], [-1300, 5200, -2600, -1300],
                          [0, 0, 0, 0], [-1100, 4300, -1100, -2100]]
    last = g.row(-1, named=True)
    assert [last[f"recorded_final_{s}"] for s in range(4)] == [21600, 36500, 29600, 12300]
    assert last["recorded_game_points_0"] is None  # mjai records no game points
    assert set(g["rules"]) == {"tenhou;game_length=east"}  # gametype tonpu; red fives seen (no aka_flag)
    assert g["lobby"].null_count() == g.height


def test_mortal_style_game(made):
    """No reasons, no values: four winds and the exhaustive draw are told apart by the play."""
    g = made.filter(pl.col("game_id") == _id_of(MORTAL))
    assert g["round"].to_list() == ["E1"] * 5
    assert g["honba"].to_list() == [0, 1, 2, 2, 3]
    assert g["result"].to_list() == ["abort", "draw", "ron", "ron", "ron"]
    assert g["winner"].to_list() == [None, None, "0", "1", "0"]
    assert g["loser"].to_list() == [None, None, "3", "3", "2"]
    assert g["tenpai"].to_list() == [None, ["0"], None, None, None]  # from the noten money
    assert g["riichi"].to_list() == [[], [], ["1"], ["1"], []]
    assert g["hand"].to_list() == [None, None, "234678m345p56667s", "456789m456p22888s", "234567m678p34599s"]
    assert g["win_tile"].to_list() == [None, None, "5p", "5p", "7p"]
    assert g["ura"].to_list() == [None, None, None, "7m", None]  # only the riichi winner's ura_markers
    assert g["chankan"].to_list() == [None, None, False, False, True]  # the ron on seat 2's kakan
    assert g["ippatsu"].to_list() == [None, None, False, False, False]
    # the double ron: honba and sticks to the winner nearest the discarder, the riichi deposit on the first row
    assert _deltas(g) == [[0, 0, 0, 0], [3000, -1000, -1000, -1000], [4500, -1000, 0, -3500], [0, 2600, 0, -2600],
                          [2900, 0, -2900, 0]]
    for col in ("recorded_han", "recorded_fu", "recorded_points", "recorded_limit", "recorded_yaku", "pao",
                "recorded_final_0", "lobby"):
        assert g[col].null_count() == g.height, col
    assert set(g["rules"]) == {"tenhou;game_length=east"}  # kyoku_first 4


def test_exhaustive_draws_of_the_made_games_match_the_hands():
    """The fixed-seed walls of the two exhaustive draws leave exactly the recorded tenpai seats tenpai."""
    for path, n, tenpai in ((GIMITE, 0, [1]), (MORTAL, 1, [0])):
        k = parse_file(path, "mjai").kyokus[n]
        rp = replay(k)
        assert rp.draws == 70
        assert [s for s in range(4) if is_tenpai(rp.concealed[s], rp.melds[s])] == tenpai
        assert rp.nagashi == []


def test_check_agrees_with_the_made_games(made):
    result = check(made)
    assert result.findings.height == 0, result.findings
    assert {"han", "fu", "points", "yaku", "ura_dora", "aka_dora", "delta_0", "final_0"} <= set(result.fields_compared)


# --- every shared Tenhou log, converted to mjai -------------------------------------------------------------

# columns mjai does not carry in each style (null after the import, or, for rules, without what they feed)
MORTAL_NULL = ["pao", "lobby", "recorded_han", "recorded_fu", "recorded_points", "recorded_limit", "recorded_yaku",
               "recorded_dora", "recorded_ura_dora", "recorded_aka_dora", "recorded_yakuman",
               *[f"recorded_{c}_{s}" for c in ("final", "game_points") for s in range(4)]]
GIMITE_NULL = ["lobby", "game_length", *[f"recorded_game_points_{s}" for s in range(4)]]
# who played when: no ranks or ratings in mjai, and the converted files are not named after Tenhou log ids
IDENTITY = [*[f"{c}_{s}" for c in ("dan", "rate") for s in range(4)], "played_at"]
MORTAL_NULL += IDENTITY
GIMITE_NULL += IDENTITY


def _converted(shared_logs: Path, tmp: Path, style: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    files, _ = expand_paths([shared_logs])
    tenhou_files = []
    for n, f in enumerate(files):
        game = parse_file(f)
        if game.players != 4:
            continue  # the mjai import is four-player only
        if lobby_rules(game).note is not None:
            continue  # a special lobby's settlement (chips, 雀荘, custom rules): mjai names no lobby
        tenhou_files.append(f)
        (tmp / f"{n:03d}.jsonl").write_text(to_mjai(game, style), encoding="utf-8")
    tenhou, problems = read_tenhou(tenhou_files)
    assert problems == []
    mjai, problems = read_mjai([tmp])
    assert problems == []
    return tenhou, mjai


def _same_people(df: pl.DataFrame) -> pl.DataFrame:
    """Anonymous players are named after their game id, which differs by design."""
    return df.with_columns(pl.col(f"player_{s}").str.replace(r"^NoName@.*#", "NoName#") for s in range(4))


def _rules_without(df: pl.DataFrame, *options: str) -> pl.Series:
    # mjai does not say which platform a game was played on: the Mahjong Soul fragment (confusing_nakis_7, a
    # "Gold Room South") is a tenhou game there
    rules = df["rules"].str.replace(r"^majsoul", "tenhou")
    for option in options:
        rules = rules.str.replace(rf";{option}=[^;]*", "")
    return rules


@pytest.mark.parametrize("style", ["mortal", "gimite"])
def test_every_shared_log_converted_to_mjai_imports_the_same(shared_logs, tmp_path, style):
    tenhou, mjai = _converted(shared_logs, tmp_path, style)
    assert mjai.height == tenhou.height == 843
    assert mjai["game_id"].n_unique() == tenhou["game_id"].n_unique() == 101
    null = MORTAL_NULL if style == "mortal" else GIMITE_NULL
    not_nagashi = mjai.filter(pl.col("result") != "nagashi")  # nagashi: recorded_points is the winner's delta
    for col in null:
        assert not_nagashi[col].null_count() == not_nagashi.height, col
    differ = ["game_id", "log_file", "rules", "room", "recorded_yaku", *null]  # mjai names no room (Mahjong Soul's)
    a, b = _same_people(tenhou).drop(differ), _same_people(mjai).drop(differ)
    for col in a.columns:  # one column at a time: the message names it
        assert a[col].equals(b[col]), col
    if style == "gimite":
        # the yaku, in gimite's names: the same, though one sangenpai entry lists the dragons in hand order
        assert tenhou["recorded_yaku"].list.sort().equals(mjai["recorded_yaku"].list.sort())
        # no game length in gimite's start_game; uma / tenths come from game points that mjai does not record;
        # without aka_flag, red fives are on when the log shows one: not so in a fragment that deals none
        expected = _rules_without(tenhou, "game_length", "uma", "game_points_rounding")
        differs = expected != mjai["rules"]
        assert (mjai["rules"].filter(differs) == expected.filter(differs) + ";aka_dora=false").all()
        no_red = set(mjai.group_by("game_id").agg(pl.col("hand").str.contains("0").any().not_()).filter(
            pl.col("hand"))["game_id"])
        assert set(mjai["game_id"].filter(differs)) <= no_red
        assert differs.sum() <= 3
    else:
        assert _rules_without(tenhou, "uma", "game_points_rounding").equals(mjai["rules"])


def test_check_on_the_converted_logs_finds_what_it_finds_on_the_tenhou_logs(shared_logs, tmp_path):
    """The gimite style carries deltas, values and final scores: check gives the Tenhou import's findings."""
    tenhou, mjai = _converted(shared_logs, tmp_path, "gimite")
    ids = dict(zip(mjai["game_id"].unique(maintain_order=True), tenhou["game_id"].unique(maintain_order=True)))
    key = ["game_id", "hand_no", "field", "kind", "seat"]
    # the Tenhou rows' uma (from their game points) is not in the mjai rows': compare under the same rules
    found = {
        tuple(r) for r in check(mjai, "tenhou").mismatches.with_columns(pl.col("game_id").replace(ids))
        .filter(~pl.col("field").str.starts_with("game_points")).select(key).iter_rows()
    }
    expected = {
        tuple(r) for r in check(tenhou.drop([f"recorded_game_points_{s}" for s in range(4)]), "tenhou")
        .mismatches.select(key).iter_rows()
    }
    assert found == expected
    edited = _id_of(shared_logs / "tenhou-json" / "mjai-reviewer" / "confusing_nakis_1.json", "tenhou")
    assert {(edited, "delta_0")} <= {(g, f) for g, _, f, _, _ in found}


# --- broken input, problems and the CLI ---------------------------------------------------------------------


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


@pytest.fixture
def broken(tmp_path) -> Path:
    lines = _lines(MORTAL)
    (tmp_path / "good.json").write_text("".join(lines))
    (tmp_path / "truncated.json").write_text("".join(lines[:40]) + lines[40][: len(lines[40]) // 2])
    (tmp_path / "no_end.json").write_text("".join(lines[:-1]))
    view = [json.loads(x) for x in lines]
    for ev in view:  # seat 0's own log: the others' tiles hidden, as the server sends them
        if ev["type"] == "start_kyoku":
            ev["tehais"] = [h if s == 0 else ["?"] * 13 for s, h in enumerate(ev["tehais"])]
        if ev["type"] == "tsumo" and ev["actor"] != 0:
            ev["pai"] = "?"
    (tmp_path / "seat0_view.json").write_text("".join(json.dumps(e) + "\n" for e in view))
    (tmp_path / "tenhou.json").write_text(json.dumps({"log": [], "name": ["a", "b", "c", "d"]}))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "game.mjson.gz").write_bytes(gzip.compress(GIMITE.read_bytes()))
    return tmp_path


def test_bad_files_are_one_problem_each_and_the_rest_imports(broken):
    df, problems = read_mjai([broken])
    assert sorted(df["game_id"].unique()) == sorted([_id_of(broken / "good.json"), _id_of(broken / "sub" / "game.mjson.gz")])
    reasons = {Path(p.file).name: p.reason for p in problems}
    assert set(reasons) == {"truncated.json", "no_end.json", "seat0_view.json", "tenhou.json"}
    assert reasons["truncated.json"].startswith("line 41: not valid JSON")
    assert "end_game" in reasons["no_end.json"]
    assert "hidden tile" in reasons["seat0_view.json"] and "one player's view" in reasons["seat0_view.json"]
    assert "import tenhou" in reasons["tenhou.json"]
    assert not any(p.imported for p in problems)


def test_a_tenhou_import_of_an_mjai_log_says_which_command(tmp_path):
    (tmp_path / "g.json").write_bytes(MORTAL.read_bytes())
    df, problems = read_tenhou([tmp_path / "g.json"])
    assert df.height == 0 and "import it with `analyzer import mjai`" in problems[0].reason


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda evs: evs[1].update(tehais=evs[1]["tehais"][:3], scores=[35000] * 3), "a 4-player game"),
        (lambda evs: evs.insert(1, {"type": "start_game", "names": ["a", "b", "c", "d"]}), "second start_game"),
        (lambda evs: evs[1].update(oya=2), "dealer 2 is not seat 0"),
        (lambda evs: evs.insert(3, {"type": "tsumo", "actor": 5, "pai": "1m"}), "bad actor"),
        (lambda evs: evs.insert(3, {"type": "tsumo", "actor": 1, "pai": "0m"}), "bad tile '0m'"),
        (lambda evs: evs.insert(3, {"type": "nukidora", "actor": 1}), "outside a three-player game"),
        (lambda evs: evs.insert(3, {"type": "kakan2", "actor": 1}), "unknown event type"),
        (lambda evs: evs[0].update(aka_flag=False), "aka_flag false"),
        (lambda evs: [evs.pop(i) for i in range(len(evs) - 1, -1, -1) if evs[i]["type"] == "end_kyoku"], None),
    ],
)
def test_malformed_events(tmp_path, edit, words):
    evs = [json.loads(x) for x in _lines(MORTAL)]
    edit(evs)
    (tmp_path / "g.json").write_text("".join(json.dumps(e) + "\n" for e in evs))
    df, problems = read_mjai([tmp_path / "g.json"])
    if words is None:  # end_kyoku is optional: the next start_kyoku ends the hand
        assert problems == [] and df.height == 5
    else:
        assert df.height == 0 and len(problems) == 1 and words in problems[0].reason, problems


def test_cli_import_mjai(broken, tmp_path):
    runner = CliRunner()
    out = tmp_path / "hands.parquet"
    result = runner.invoke(main, ["import", "mjai", str(broken), "-o", str(out)])
    assert result.exit_code == 1, result.output  # some files did not import: as `import tenhou`
    assert "truncated.json" in result.output and "imported 2 game(s), 10 row(s)" in result.output
    assert "Traceback" not in result.output
    assert pl.read_parquet(out).height == 10
    result = runner.invoke(main, ["import", "mjai", str(MORTAL), "-o", str(out)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["import", "mjai", str(broken / "no_end.json"), "-o", str(tmp_path / "x.csv")])
    assert result.exit_code != 0 and "no game imported" in result.output and not (tmp_path / "x.csv").exists()
    result = runner.invoke(main, ["import", "mjai", str(MORTAL), "-o", str(tmp_path / "x.txt")])
    assert result.exit_code != 0 and "use a .parquet or .csv" in result.output


def test_cli_exit_codes_are_those_of_import_tenhou(broken, tmp_path):
    runner = CliRunner()
    (tmp_path / "empty").mkdir()
    for target in (tmp_path / "empty", tmp_path / "missing", broken / "no_end.json"):
        codes = {cmd: runner.invoke(main, ["import", cmd, str(target), "-o", str(tmp_path / "o.parquet")]).exit_code
                 for cmd in ("tenhou", "mjai")}
        assert codes["tenhou"] == codes["mjai"] != 0, (target.name, codes)
